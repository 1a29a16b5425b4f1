// The part of a ratio no node program can win back: starting node. Cases whose reference is a C
// tool run `node -e 0` beside it, so each row says what a CLI that only started node and then did
// exactly what the reference does would reach (a missed target below that is the start-up's).
import { measure } from './measure.mjs';
import { NODE } from './wes.mjs';

/** A side for interleave(): one `node -e 0`. */
export const nodeStart = () => measure(NODE, ['-e', '0']);

/**
 * The best ratio a node CLI could reach: `time` for a time ratio (wes / reference, lower is
 * better), else a throughput ratio (reference / wes, higher is better).
 */
export function startUpFloor(nodeMs, referenceMs, kind) {
  const best = kind === 'time' ? (nodeMs + referenceMs) / referenceMs : referenceMs / (nodeMs + referenceMs);
  return `start-up floor: node -e 0 ${nodeMs.toFixed(0)} ms + the reference ${referenceMs.toFixed(0)} ms, so at best ${best.toFixed(2)}×`;
}
