// The MCP server and its SDK load only for `wes mcp`: every other command starts as it did
// (a chunk costs its read and compile on every run). The built binary, with a hook that lists
// the modules each run loaded.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { spawnWes } from '../helpers/cli.js';
import { useTempDir } from './jobs-env.js';

const HOOK = join(import.meta.dirname, '../fixtures/start-up/list-loaded-modules.cjs');

/** The sources bundled into the dist chunks a run loaded (esbuild's `// src/...` and `// node_modules/...` markers). */
function loadedSources(list: string): string[] {
  const urls = existsSync(list) ? readFileSync(list, 'utf8').split('\n') : [];
  rmSync(list, { force: true });
  const sources = new Set<string>();
  for (const url of new Set(urls.filter((u) => u.startsWith('file:') && u.includes('/dist/')))) {
    for (const marker of readFileSync(fileURLToPath(url), 'utf8').matchAll(/^\/\/ ((?:src|node_modules)\/\S+)$/gm)) sources.add(marker[1]!);
  }
  return [...sources];
}

const MCP_CODE = (source: string) => source.startsWith('src/mcp/') || source.startsWith('node_modules/@modelcontextprotocol/') || source.startsWith('node_modules/zod/');

describe('modules the mcp verb loads', () => {
  const dir = useTempDir();

  it('other commands load neither the MCP server nor its SDK; `wes mcp --list-tools` loads the tools but not the SDK', async () => {
    const list = join(dir(), 'modules.txt');
    const env = { NODE_OPTIONS: `--require ${HOOK}`, WES_TEST_MODULES_FILE: list, WES_STATE_DIR: dir() };
    for (const args of [['jobs', 'list'], ['--help'], ['mcp', '--help']]) {
      const res = await spawnWes(args, { env });
      expect(res.code, res.stderr).toBe(0);
      const sources = loadedSources(list);
      expect(sources.some((s) => s.startsWith('node_modules/commander/')), args.join(' ')).toBe(true);
      expect(sources.filter(MCP_CODE), args.join(' ')).toEqual([]);
    }
    const listed = await spawnWes(['mcp', '--list-tools'], { env });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('submit_job');
    const sources = loadedSources(list);
    expect(sources).toContain('src/mcp/list-tools.ts');
    expect(sources).toContain('src/mcp/tools/jobs.ts');
    // Printing the tools needs their declarations, not the protocol.
    expect(sources.filter((s) => s.startsWith('node_modules/@modelcontextprotocol/'))).toEqual([]);
  });
});
