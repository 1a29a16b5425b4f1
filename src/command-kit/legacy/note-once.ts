// The deprecation note of a `wes legacy` command, said once a day per command: a script that runs
// `wes legacy status` every minute, or a person who works in v1 all afternoon, has read it the
// first time. When it was last said is kept in the profile's cache folder; a file that cannot be
// read or written only means the note is said again.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Factory } from '../../factory.js';
import { writeFileSafely } from '../../files/safe-file.js';
import { isRecord } from '../../clients/shared/response-check.js';

export const NOTE_EVERY_MS = 24 * 60 * 60 * 1000;

/** Whether the note of `command` is due (not said in the last day); if so, remembers that it is said now. */
export async function noteDue(f: Factory, command: string): Promise<boolean> {
  const file = join(f.store().cacheDir(f.settings().profile), 'legacy-notes.json');
  let said: Record<string, unknown> = {};
  try {
    const read: unknown = JSON.parse(await readFile(file, 'utf8'));
    if (isRecord(read)) said = read;
  } catch {
    // none yet, or damaged: said afresh
  }
  const now = f.clock.now();
  const last = said[command];
  if (typeof last === 'number' && now - last >= 0 && now - last < NOTE_EVERY_MS) return false;
  try {
    await writeFileSafely(file, JSON.stringify({ ...said, [command]: now }), { mode: 0o600 });
  } catch {
    // not remembered: said again next time
  }
  return true;
}
