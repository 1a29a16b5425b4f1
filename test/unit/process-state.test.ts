// No command changes what the process shares (issue 30): tests, an in-process dev-server and
// concurrent in-process runs live in one process. V8 flags are the entry point's (src/cli.ts,
// src/runtime/batch-heap.ts), the hashing setting is a value each run passes down, and no module
// under src/commands or src/features writes process.env, sets V8 flags or leaves a process handler.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isBatchInvocation } from '../../src/runtime/batch-heap.js';
import { blake3Backend } from '../../src/util/blake3.js';
import { runWes } from '../helpers/cli.js';

const root = resolve(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

/** Whether this machine has the native blake3 (the process's own environment forces nothing). */
const nativeHere = blake3Backend({ forceWasm: false, partThread: undefined }) === 'native';

describe('process-wide state', () => {
  it('no command or use case sets V8 flags, writes process.env or installs a process handler', () => {
    const found: string[] = [];
    for (const file of [...sources(join(root, 'src/commands')), ...sources(join(root, 'src/features'))]) {
      if (file.includes('/commands/dev-server/')) continue; // starts a server the way `wes dev-server` owns its process
      const text = readFileSync(file, 'utf8');
      for (const [what, pattern] of [
        ['V8 flags', /setFlagsFromString/],
        ['process.env write', /process\.env(\.\w+|\[[^\]]+\])\s*=(?!=)|delete process\.env/],
        ['process handler', /process\.(on|once|prependListener)\(/],
      ] as const) {
        if (pattern.test(text)) found.push(`${relative(root, file)}: ${what}`);
      }
    }
    expect(found).toEqual([]);
  });

  it('a batch is recognised on the command line, wherever its flags are', () => {
    expect(isBatchInvocation(['jobs', 'submit', '--batch', 'lines.jsonl'])).toBe(true);
    expect(isBatchInvocation(['--json', 'jobs', 'submit', '--batch=lines.jsonl', '--concurrency', '8'])).toBe(true);
    expect(isBatchInvocation(['jobs', 'submit', 'flow.json', '--wait'])).toBe(false);
    expect(isBatchInvocation(['jobs', 'get', '--batch'])).toBe(false);
  });

  it.skipIf(!nativeHere)('concurrent in-process runs each hash with their own WES_BLAKE3', async () => {
    const runs = await Promise.all(
      Array.from({ length: 6 }, (_, i) => (i % 2 ? { WES_BLAKE3: 'wasm' } : { WES_BLAKE3: undefined })).map(async (env) => {
        const r = await runWes(['version', '--json'], { env });
        return { asked: env.WES_BLAKE3 ?? 'native', got: JSON.parse(r.stdout).blake3 as string };
      }),
    );
    for (const run of runs) expect(run.got).toBe(run.asked);
  });
});
