// The command lines a models use case names when it cannot finish here: the run again under its
// Idempotency-Key (a call in doubt is collected, never billed twice), and `models result --wait`
// for a queued request left running. The flags given are repeated, so the output goes where it
// was asked to.
import type { ModelRef } from '../../protocol/model-ids.js';
import { shellWord } from '../../util/shell-word.js';

/** Where the output was asked to go: -o FILE, --download DIR. */
export interface OutputFlags {
  output?: string;
  download?: string;
}

/** The flags of `models run` that make the same run. */
export interface RunFlags extends OutputFlags {
  input?: string;
  data?: string;
  param?: string[];
  queue?: boolean;
  wait?: boolean;
}

/** The words of this run again (its input and output flags); the key flag is appended by whoever names it. */
export function runWords(id: string, opts: RunFlags): string[] {
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

/** `wes models result MODEL ID --wait` with the output flags given: what collects this request later. */
export function resultCommand(ref: ModelRef, requestId: string, target: OutputFlags): string {
  const words = ['wes', 'models', 'result', ref.id, requestId, '--wait'];
  if (target.output !== undefined) words.push('-o', target.output);
  if (target.download !== undefined) words.push('--download', target.download);
  return words.map(shellWord).join(' ');
}
