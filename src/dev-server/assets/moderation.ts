// Stand-in moderation: an upload whose bytes contain this marker is refused with 451 content_blocked.
import { Transform } from 'node:stream';

export const BLOCKED_CONTENT_MARKER = 'WES-BLOCKED-CONTENT';

/** A pass-through that notes whether the marker appears anywhere, also across chunk edges. */
export function moderationTap(): { tap: Transform; flagged: () => boolean } {
  const marker = Buffer.from(BLOCKED_CONTENT_MARKER);
  let tail = Buffer.alloc(0);
  let found = false;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (!found) {
        const window = Buffer.concat([tail, chunk]);
        found = window.includes(marker);
        tail = window.subarray(Math.max(0, window.length - (marker.length - 1)));
      }
      callback(null, chunk);
    },
  });
  return { tap, flagged: () => found };
}
