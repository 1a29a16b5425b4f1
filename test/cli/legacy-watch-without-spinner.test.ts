// `legacy watch` run off a terminal (a script, CI, the bench) shows its progress as plain lines and
// loads neither the spinner (ora) nor the table renderer (cli-table3): the built CLI, with a loader
// hook listing every module it loads.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sampleWorkflow, submit } from '../dev-server/legacy-kit.js';
import { useLegacyServer } from './legacy-kit.js';

const kit = useLegacyServer({ stepMs: 4 }, 'wes-legacy-no-spinner-');
const PRELOAD = join(import.meta.dirname, '../fixtures/start-up/list-loaded-modules.cjs');

describe('legacy watch off a terminal', () => {
  it('follows a prompt to its end with progress lines, without loading ora or cli-table3', async () => {
    const id = await submit(kit.server, sampleWorkflow(6, 'lines'));
    const list = join(kit.dir, 'modules.txt');
    writeFileSync(list, '');
    const res = await kit.wes(['legacy', 'watch', id], { env: { NODE_OPTIONS: `--require ${PRELOAD}`, WES_TEST_MODULES_FILE: list } });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout.trim()).toBe('success');
    expect(res.stderr).toContain(`prompt ${id}: success`);
    const chunks = readFileSync(list, 'utf8').split('\n').filter((u) => u.startsWith('file:') && u.includes('/dist/'));
    expect(chunks.length).toBeGreaterThan(5); // the list is real
    const bundled = chunks.map((u) => readFileSync(fileURLToPath(u), 'utf8'));
    expect(bundled.filter((text) => text.includes('node_modules/ora/'))).toEqual([]);
    expect(bundled.filter((text) => text.includes('node_modules/cli-table3/'))).toEqual([]);
  });
});
