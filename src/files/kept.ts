// What an interrupted download leaves: each .part kept (and how much of the file it holds) and the
// one command that goes on from there.
import type { IOStreams } from '../render/io.js';
import { sanitizeLine } from '../render/sanitize.js';
import { formatBytes } from '../render/byte-count.js';
import type { KeptPart } from './save.js';

export type { KeptPart };

/** Tells (on stderr, even with --quiet) what was kept and the command that resumes it. */
export function reportKept(io: IOStreams, parts: KeptPart[], resume: string): void {
  if (parts.length === 0) return;
  for (const part of parts) {
    const share = part.total ? ` of ${formatBytes(part.total)}` : '';
    io.notice(sanitizeLine(`kept ${part.path} (${formatBytes(part.bytes)}${share} downloaded, checked at the end)`));
  }
  io.notice(sanitizeLine(`resume the download with: ${resume}`));
}
