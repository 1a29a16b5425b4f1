// What an interrupted download leaves: each .part kept (and how much of the file it holds) and the
// one command that goes on from there.
import { sanitizeLine } from '../util/sanitize.js';
import { formatBytes } from '../util/byte-count.js';
import type { KeptPart } from './save.js';

export type { KeptPart };

/** The lines that tell what was kept and the command that resumes it (none when nothing was kept). */
export function keptNotices(parts: KeptPart[], resume: string): string[] {
  if (parts.length === 0) return [];
  const lines = parts.map((part) => {
    const share = part.total ? ` of ${formatBytes(part.total)}` : '';
    return sanitizeLine(`kept ${part.path} (${formatBytes(part.bytes)}${share} downloaded, checked at the end)`);
  });
  lines.push(sanitizeLine(`resume the download with: ${resume}`));
  return lines;
}
