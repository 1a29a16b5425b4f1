// The V8 flags wes runs with, set before any of its own code is compiled. V8 keys every code
// cache by the flags in force, Node's own for its built-in modules included: a built-in module
// first loaded after this is compiled from source (sea-loader.ts and cli.ts load the ones every
// command needs before it), and wes's code cache is used only under the same flags.
//
// - --wasm-tiering-budget: V8 optimises hot WebAssembly in the background, and exit waits for it:
//   undici's WASM HTTP parser used to cost a short command ~35 ms at exit (`jobs get` 158 -> 124
//   ms with a larger budget), and a download ~35 MB of peak RSS and ~20 % more CPU for the
//   compile. The parser mostly skips over body bytes, so its baseline code is enough: the budget
//   is high enough that it never tiers up. blake3 is native (src/util/blake3.ts); the WASM
//   fallback costs ~15 % more CPU.
// - --no-sparkplug: V8's baseline compiler compiled ~170 functions in batches on the main thread
//   during a `jobs get`, each into new code pages, for a command that ends before they pay off:
//   without it the single executable's `jobs get` took 5.0 ms less (paired runs), 1.9 M fewer
//   instructions and 50 fewer page faults. Hot code still reaches TurboFan; a 50 000-message
//   `legacy watch` took 1780 against 1720 ms of CPU, as the reference client moved 2050 against
//   1990 ms in the same runs (bench/RESULTS.md).
import { setFlagsFromString } from 'node:v8';

export function setV8Flags(): void {
  setFlagsFromString('--wasm-tiering-budget=2000000000');
  setFlagsFromString('--no-sparkplug');
}
