// wes version: what a bug report needs, beside the bare `wes --version`.
import type { Factory } from '../../factory.js';
import { VERSION } from '../../factory-version.js';
import { blake3Backend } from '../../util/blake3.js';
import { buildKind } from '../../util/sea-host.js';
import { noOptions } from '../typed-options.js';
import { defineVerb } from '../verb.js';

async function run(f: Factory): Promise<number> {
  const info = { version: VERSION, node: process.versions.node, platform: `${process.platform}-${process.arch}`, blake3: blake3Backend(f.hashing()), build: buildKind() };
  if (f.io.json) f.io.printJson(info);
  else f.io.println(`wes ${info.version} (node ${info.node}, ${info.platform}${info.build === 'sea' ? ', single executable' : ''})`);
  return 0;
}

export default defineVerb({
  path: ['version'],
  args: {},
  options: noOptions(),
  help: {
    summary: 'Print the version of wes, Node.js and the platform (--json for scripts and bug reports)',
    group: 'Setup and tools:',
    after: ['\nExamples:\n  $ wes version\n  $ wes version --json'],
  },
  run,
});
