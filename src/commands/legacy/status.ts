// wes legacy status <prompt_id> [--wait]: the v1 status; --wait polls until a terminal value,
// treating every other value (even one never seen before) as in flight.
import type { Factory } from '../../factory.js';
import { sanitizeLine } from '../../render/sanitize.js';
import { failureOf } from './report.js';
import { pollToEnd } from './wait.js';
import { intervalMs, legacyClient } from './shared.js';

export async function run(f: Factory, args: string[], opts: Record<string, unknown>): Promise<number> {
  const promptId = args[0]!;
  const client = legacyClient(f, 'status');
  if (!opts.wait) {
    const answer = await client.status(promptId);
    if (f.io.json) f.io.printJson(answer);
    else f.io.println(sanitizeLine(answer.status));
    return 0;
  }
  const status = await pollToEnd(f, client, promptId, intervalMs(opts.interval, 1));
  if (f.io.json) f.io.printJson({ status });
  else f.io.println(sanitizeLine(status));
  const failure = failureOf(promptId, status, null);
  if (failure) throw failure;
  return 0;
}
