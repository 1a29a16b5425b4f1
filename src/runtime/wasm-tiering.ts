// V8 optimises hot WebAssembly in the background, and exit waits for it: undici's WASM HTTP
// parser used to cost a short command ~35 ms at exit (`jobs get` 158 -> 124 ms with a larger
// budget), and a download ~35 MB of peak RSS and ~20 % more CPU for the compile. The parser
// mostly skips over body bytes, so its baseline code is enough: the budget is high enough that it
// never tiers up. blake3 is native (src/util/blake3.ts); the WASM fallback costs ~15 % more CPU.
//
// V8 keys every code cache by the flags in force, Node's own for its built-in modules included:
// a built-in module first loaded after this is compiled from source (sea-loader.ts loads the ones
// every command needs before it), and wes's code cache is used only under the same flags.
import { setFlagsFromString } from 'node:v8';

export function keepWasmAtBaseline(): void {
  setFlagsFromString('--wasm-tiering-budget=2000000000');
}
