// Where a model's output goes, for `models run` and `models result`: standard output (the router's
// bytes unchanged when piped), a file (-o, written as it arrives), and --download DIR (the files a
// JSON output links to, or a binary output itself). A binary output (the published router passes a
// partner's audio or video bytes through under their own media type) is never written raw to a
// terminal: it is saved to a file named after the model instead, and the path is said.
import { dirname, join } from 'node:path';
import type { Factory } from '../../factory.js';
import type { ExistingPolicy } from '../../files/existing-policy.js';
import { FileExistsError, lstatOrNone, makeFolders, writeFileSafely } from '../../files/safe-file.js';
import { checkFileTarget, checkFolderTarget } from '../../files/targets.js';
import { answerFile } from '../../files/answer-file.js';
import { sanitize, sanitizeLine } from '../../util/sanitize.js';
import type { ModelRef } from '../../protocol/model-ids.js';
import type { RunAnswer } from '../../clients/models/client.js';
import type { OutputFetch } from '../../features/models/follow.js';
import { reporterOn } from '../reporters.js';
import { reportAnswer, type AnswerFacts } from './answer-report.js';

export interface OutputTarget {
  /** -o FILE (`-`: standard output). */
  output?: string;
  download?: string;
  show?: boolean;
  existing: ExistingPolicy;
}

/**
 * Output targets, checked before anything is sent: a -o file already there stops the command
 * (exit 1) unless --clobber; with --skip-existing the file is kept and false is returned.
 */
export async function checkTargets(f: Factory, target: OutputTarget, skipped: string): Promise<boolean> {
  if (target.download !== undefined) await checkFolderTarget(target.download, '--download');
  if (target.output === undefined || target.output === '-') return true;
  const path = target.output;
  await checkFileTarget(path, '-o');
  if (!(await lstatOrNone(path)) || target.existing === 'clobber') return true;
  if (target.existing === 'refuse') throw new FileExistsError(path);
  f.io.info(`kept the existing ${path} (--skip-existing); ${skipped}`);
  return false;
}

/** A media type that holds JSON: `application/json`, `text/json`, any `+json`. */
export function isJsonType(contentType: string | undefined): boolean {
  const type = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  return /^[\w.+-]+\/([\w.-]+\+)?json$/.test(type);
}

/** Not JSON: a declared non-JSON media type, or no type and bytes that are not JSON text. */
export function isBinaryAnswer(answer: RunAnswer<Buffer>): boolean {
  const declared = answer.headers['content-type'];
  if (declared) return !isJsonType(declared);
  try {
    JSON.parse(answer.body.toString('utf8'));
    return false;
  } catch {
    return true;
  }
}

function writeStdout(f: Factory, bytes: Buffer): Promise<void> {
  // Piped output is the router's bytes unchanged; a terminal gets them without control sequences.
  const data = f.io.stdoutIsTTY ? sanitize(bytes.toString('utf8')).replace(/([^\n])$/, '$1\n') : bytes;
  return new Promise((resolve, reject) => f.io.stdout.write(data, (err) => (err ? reject(err) : resolve())));
}

/** Saves `bytes` in `dir` under the model's name and the media type's extension, never over a file already there. */
async function saveUnder(dir: string, ref: ModelRef, contentType: string | undefined, bytes: Buffer): Promise<string> {
  await makeFolders(dir);
  const { extensionFor } = await import('../../files/media-type.js');
  const ext = extensionFor(contentType) ?? 'bin';
  for (let i = 0; ; i++) {
    const path = join(dir, `${ref.model}${i === 0 ? '' : ` (${i})`}.${ext}`);
    try {
      await writeFileSafely(path, bytes, { replace: false });
      return path;
    } catch (err) {
      if (!(err instanceof FileExistsError) || i >= 999) throw err;
    }
  }
}

/**
 * Fetches the output into its target and says where it went. `again` words how to fetch the same
 * output once more without running the model again (for a download cut short).
 */
export async function deliverOutput(f: Factory, ref: ModelRef, target: OutputTarget, fetch: OutputFetch, facts: Omit<AnswerFacts, 'bytes' | 'file'>, again: string): Promise<void> {
  const file = target.output !== undefined && target.output !== '-' ? target.output : undefined;
  if (file !== undefined && target.download === undefined) {
    // Written into the file as it arrives; --download needs the output in memory, to find its links.
    const written = await fetch(answerFile(file, target.existing === 'clobber'));
    f.io.info(`wrote the output of ${ref.id} to ${file} (${written.body} bytes)`);
    return reportAnswer(f, ref, written.headers, { ...facts, bytes: written.body, file });
  }
  const answer = await fetch<Buffer>();
  const binary = isBinaryAnswer(answer);
  const type = answer.headers['content-type'];
  let shownAt: string | null = file ?? null;
  if (file !== undefined) {
    await makeFolders(dirname(file));
    await writeFileSafely(file, answer.body, { replace: target.existing === 'clobber' });
    f.io.info(`wrote the output of ${ref.id} to ${file} (${answer.body.length} bytes)`);
  } else if (binary && target.download === undefined && f.io.stdoutIsTTY) {
    shownAt = await saveUnder('.', ref, type, answer.body);
    f.io.notice(sanitizeLine(`the output is ${type ?? 'binary data'} (${answer.body.length} bytes), not text: saved it to ${shownAt} instead of printing it (-o FILE names the file)`));
  } else if (!binary || target.download === undefined) {
    await writeStdout(f, answer.body);
  }
  if (target.download !== undefined) {
    let paths: string[];
    if (binary) {
      shownAt = await saveUnder(target.download, ref, type, answer.body);
      f.io.info(`saved ${shownAt} (${answer.body.length} bytes, ${sanitizeLine(type ?? 'binary data')})`);
      paths = [shownAt];
    } else {
      const { saveLinkedFiles } = await import('../../features/models/linked-files.js');
      paths = await saveLinkedFiles(f, answer.body, target.download, target.existing, again, reporterOn(f.io));
    }
    // stdout holds the model's output; the pictures follow it there, their paths are on stderr.
    if (target.show) await (await import('../../render/pictures/show.js')).showSavedPictures(f.io, paths, false);
  }
  await reportAnswer(f, ref, answer.headers, { ...facts, bytes: answer.body.length, file: shownAt });
}
