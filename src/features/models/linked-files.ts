// `--download DIR` of a model's JSON output: every http(s) URL found in it saved into the folder
// (clients/models/output-urls.ts), each file said as it is saved or kept; a download cut short
// keeps its .part files, told with `again`, the command that fetches the same output once more
// without running the model again.
import { downloadUrls, outputUrls } from '../../clients/models/output-urls.js';
import type { ExistingPolicy } from '../../files/existing-policy.js';
import { keptNotices, type KeptPart } from '../../files/kept.js';
import type { FeatureContext } from '../context.js';
import type { Reporter } from '../reporter.js';

/** The paths saved. */
export async function saveLinkedFiles(f: FeatureContext, output: Buffer, dir: string, existing: ExistingPolicy, again: string, reporter: Reporter): Promise<string[]> {
  let value: unknown;
  try {
    value = JSON.parse(output.toString('utf8'));
  } catch {
    reporter.notice('notice', 'note: the output is not JSON; no URLs to download');
    return [];
  }
  const urls = outputUrls(value);
  if (urls.length === 0) {
    reporter.notice('info', 'no URLs in the output to download');
    return [];
  }
  const kept: KeptPart[] = [];
  const choices = { existing, warn: (line: string) => reporter.notice('warn', line), onKept: (part: KeptPart) => kept.push(part), hashing: f.hashing() };
  const saved = await downloadUrls(f.http(), urls, dir, (file) => reporter.notice('info', file.kept ? `kept the existing ${file.path}` : `saved ${file.path} (${file.bytes} bytes)`), choices).finally(() => {
    for (const line of keptNotices(kept, again)) reporter.notice('notice', line);
  });
  return saved.map((file) => file.path);
}
