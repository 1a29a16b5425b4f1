// The part of a ratio no node program can win back: starting node. Cases whose reference is a C
// tool (or the server's own time) run `node -e 0` beside it, in the same runs, and compare wes
// with the sum: what a CLI that only started node and then did exactly what the reference does
// would take (see targets.mjs).
import { measure } from './measure.mjs';
import { NODE } from './wes.mjs';

/** A side for interleave(): one `node -e 0`. */
export const nodeStart = () => measure(NODE, ['-e', '0']);
