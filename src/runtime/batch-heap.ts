// The entry point's V8 tuning for a batch (`wes jobs submit --batch FILE`): set by src/cli.ts,
// which owns the process, before the command runs, never by the command itself (a command runs
// in-process in tests and beside an in-process dev-server, which must keep V8's defaults).
import { setFlagsFromString } from 'node:v8';

/** Whether the command line is a batch: `jobs submit` with --batch (the tuning is harmless elsewhere, so a loose check will do). */
export function isBatchInvocation(argv: readonly string[]): boolean {
  return argv.includes('jobs') && argv.includes('submit') && argv.some((a) => a === '--batch' || a.startsWith('--batch='));
}

/**
 * A batch keeps V8's heap near what it holds, so its peak does not depend on its length. V8
 * doubles the young generation (up to 16 MB a semi-space, 48 MB in all) each time as many bytes
 * survived a scavenge as it holds; a batch's lines live for a few scavenges each (their requests
 * and follows), so over a long batch it always reached the maximum: 100 000 lines peaked ~30 MB
 * above 1 000 with no more data held. It stays at its starting 1 MB. The lines' objects then die
 * in the old generation, which V8 lets grow up to 4x its live size before a full collection; 1.5x
 * keeps the rest of the gap (128 -> ~114 MB over 20 000 lines). The cost is more collections:
 * 10-25 % more client CPU, the same wall time (bench/RESULTS.md). Both flags are read at each
 * resize, so setting them at run time takes effect.
 */
export function keepHeapSmall(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
  setFlagsFromString('--heap-growing-percent=50');
}
