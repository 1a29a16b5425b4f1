// The least a node program pays for `jobs get`'s request through undici (the project's one HTTP
// layer): the pinned, patched undici wes bundles, one Client and a bare dispatch handler (none of
// Agent, Pool, the request API's body stream, wes's CLI or config). least-get.mjs bundles this file
// with the build's own plugins; run-file.mjs runs the bundle through wes's code cache with wes's
// WebAssembly flag, as wes runs its chunks.
import { printJob } from './get-through-undici.mjs';

printJob(new URL(process.argv[2]));
