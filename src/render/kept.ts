// The kept .part files of an interrupted download, told on stderr even with --quiet.
import type { IOStreams } from './io.js';
import { keptNotices, type KeptPart } from '../files/kept.js';

/** Tells what was kept and the command that resumes it. */
export function reportKept(io: IOStreams, parts: KeptPart[], resume: string): void {
  for (const line of keptNotices(parts, resume)) io.notice(line);
}
