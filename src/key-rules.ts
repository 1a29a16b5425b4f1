// The rules of a job API Idempotency-Key, stated once. Help texts, hints and the README say these
// sentences (test/cli/key-rules-drift.test.ts holds them to it, and to no stale word of the old
// designs), so a change of design is a change here first.

/** What the service does with a key. */
export const KEY_SINGLE_USE =
  'An Idempotency-Key of the job API is single use for 24 h: the service refuses a second request with it (422 idempotency_key_reuse) whatever the body, and never replays the first answer.';

/** What wes does when a keyed submit or upload got no usable answer. */
export const KEY_IN_DOUBT =
  'A submit or upload whose answer was lost is never sent again: wes looks for its job by the key, and when it cannot tell, ends in doubt (exit 11) naming `wes jobs find --key KEY`.';

/** Where a key finds its job. */
export const KEY_FINDS_JOB =
  '`wes jobs find --key KEY` finds the job only where the server lists jobs (a submit by wes labels its job with its key); sent again after 24 h, the same key makes a second job.';

/** When a new key is safe. */
export const KEY_NEW_ONLY_WHEN_NONE = 'Take a new key only once you know no job was made.';

/** Batches: the keys of a run. */
export const KEY_BATCH_FRESH =
  'Every batch run takes fresh keys: run again without --resume (to stdout or another --results), a batch submits every line again.';

export const KEY_RULES: readonly string[] = [KEY_SINGLE_USE, KEY_IN_DOUBT, KEY_FINDS_JOB, KEY_NEW_ONLY_WHEN_NONE, KEY_BATCH_FRESH];

/** The hint of a `422 idempotency_key_reuse` (any command): what is true, and what to do. */
export function keyReuseHint(key?: string): string {
  const find = `wes jobs find --key ${key ?? 'KEY'}`;
  return `the service refuses a key it has seen, whatever the body: an earlier request with it may have made a job. Find it with \`${find}\` (or \`wes jobs list --remote\`). ${KEY_NEW_ONLY_WHEN_NONE}`;
}

/** A rule as help text shows it: lines of at most `width` columns, broken between words. */
export function wrapped(sentence: string, width = 100): string {
  const lines: string[] = [];
  let line = '';
  for (const word of sentence.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].join('\n');
}
