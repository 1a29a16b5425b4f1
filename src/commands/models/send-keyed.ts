// Sending a keyed call (a model run, a queued submit) by the router's rules, with a progress line
// saying what each wait is for; a failure names the Idempotency-Key and what to do with it.
import type { Factory } from '../../factory.js';
import type { ModelRef } from '../../protocol/model-ids.js';
import { sendModelCall } from '../../features/models/send.js';
import { AnswerSinkError } from '../../http/answer-sink.js';
import { ProgressLine, waitText } from './progress.js';
import type { ModelsRunOptions } from './options.js';

/** The words of this run again (its input flags), for the command that collects a result in doubt. */
function runCommand(id: string, opts: ModelsRunOptions): string[] {
  const words = ['wes', 'models', 'run', id];
  if (opts.input !== undefined) words.push('--input', opts.input);
  if (opts.data !== undefined) words.push('-d', opts.data);
  for (const pair of opts.param ?? []) words.push('-i', pair);
  if (opts.output !== undefined) words.push('-o', opts.output);
  if (opts.download !== undefined) words.push('--download', opts.download);
  if (opts.queue) words.push('--queue');
  if (opts.wait) words.push('--wait');
  return words;
}

/** Sends by the router's rules (features/models/send.ts), a progress line saying what each wait is for; a failure names the key and what to do. */
export async function sendKeyed<T>(f: Factory, ref: ModelRef, opts: ModelsRunOptions, idempotencyKey: string, send: () => Promise<T>, what: string): Promise<T> {
  const retries = f.http().retries;
  const progress = new ProgressLine(f);
  const verdict = await sendModelCall(f, send, async (wait) => progress.show(await waitText(ref, wait, retries, idempotencyKey))).finally(() => progress.stop());
  if (verdict.kind === 'answered' || verdict.kind === 'found') return verdict.value;
  // The output file could not be written: the run itself is not in doubt.
  if (verdict.error instanceof AnswerSinkError) throw verdict.error.cause;
  const { keyedFailure } = await import('./in-doubt.js');
  throw keyedFailure(verdict, idempotencyKey, runCommand(ref.id, opts), what);
}
