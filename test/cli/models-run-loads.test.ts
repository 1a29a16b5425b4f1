// A plain `models run` (input from a file, output to a file, nothing going wrong) loads only what
// it uses: the pair typing, the download and hashing code, the in-doubt wording and the progress
// display load when a run needs them. Each chunk costs its read and compile on every run.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useDevServer } from '../helpers/dev-server.js';
import { useTempDir } from './jobs-env.js';
import { wesAgainst } from './models-env.js';

const HOOK = join(import.meta.dirname, '../fixtures/start-up/list-loaded-modules.cjs');
const ON_DEMAND = [
  'src/clients/models/input-pairs.ts',
  'src/clients/models/schema-fields.ts',
  'src/files/media-type.ts',
  'src/files/existing.ts',
  'src/files/part-file.ts',
  'src/files/kept.ts',
  'src/render/kept.ts',
  'src/features/models/in-doubt.ts',
  'src/features/models/queue.ts',
  'src/features/models/follow.ts',
  'src/features/models/hosted-url.ts',
  'src/command-kit/models/no-router.ts',
  'src/render/open-progress.ts',
  'src/files/unreadable.ts',
];

/** The source files bundled into the dist chunks a run loaded (esbuild's `// src/...` markers). */
function loadedSources(list: string): Set<string> {
  const urls = existsSync(list) ? readFileSync(list, 'utf8').split('\n') : [];
  rmSync(list, { force: true });
  const sources = new Set<string>();
  for (const url of new Set(urls.filter((u) => u.startsWith('file:') && u.includes('/dist/')))) {
    for (const marker of readFileSync(fileURLToPath(url), 'utf8').matchAll(/^\/\/ (src\/\S+\.ts)$/gm)) sources.add(marker[1]!);
  }
  return sources;
}

describe('modules a models run loads', () => {
  const ctx = useDevServer({});
  const wes = wesAgainst(() => ctx.server);
  const dir = useTempDir();

  it('a plain run loads none of the on-demand code; a run with -i pairs loads the pair typing', async () => {
    const input = join(dir(), 'in.json');
    writeFileSync(input, '{"message":"hi"}');
    const list = join(dir(), 'modules.txt');
    const env = { NODE_OPTIONS: `--require ${HOOK}`, WES_TEST_MODULES_FILE: list };
    const plain = await wes(['models', 'run', 'dev/echo', '--input', input, '-o', join(dir(), 'out.json')], { spawn: true, env });
    expect(plain.code, plain.stderr).toBe(0);
    const sources = loadedSources(list);
    expect(sources).toContain('src/commands/models/run.ts');
    for (const source of ON_DEMAND) expect(sources, source).not.toContain(source);

    const paired = await wes(['models', 'run', 'dev/echo', '--input', input, '-i', 'extra=1', '-o', join(dir(), 'out2.json')], { spawn: true, env });
    expect(paired.code, paired.stderr).toBe(0);
    const withPairs = loadedSources(list);
    expect(withPairs).toContain('src/clients/models/input-pairs.ts');
    expect(withPairs).toContain('src/clients/models/schema-fields.ts');
  });
});
