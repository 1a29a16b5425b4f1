// Cache file names and content keys are SHA-256 digests computed with @noble/hashes
// (src/util/sha256-hex.ts) instead of node:crypto, which a command would otherwise load at
// start-up: the digests must stay the ones node:crypto gave, or an upgraded wes would not find the
// job history, engine and object_info caches it wrote, and a resumed batch would send new keys.
import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { basename } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EngineCache } from '../../src/clients/legacy/engine-cache.js';
import { ObjectInfoCache } from '../../src/clients/legacy/object-info-cache.js';
import { lineId } from '../../src/features/batch/input.js';
import { JobHistory } from '../../src/config/history.js';
import { ProfileStore } from '../../src/config/store.js';
import { sha256Hex } from '../../src/util/sha256-hex.js';
import { tempConfigDir } from '../helpers/cli.js';
import { binaryString } from '../helpers/arbitraries.js';

const nodeHex = (text: string) => createHash('sha256').update(text).digest('hex');

describe('sha256Hex', () => {
  it('is the digest node:crypto gives, for usual and unusual strings', () => {
    const cases = ['', 'abc', 'default\nhttp://127.0.0.1:8188', 'https://xn--bcher-kva.example/ü/路径?q=1', '\u{1F600}\0\u00ff', 'x'.repeat(1000), 'a'.repeat(55), 'a'.repeat(56), 'a'.repeat(64)];
    for (const text of cases) expect(sha256Hex(text), JSON.stringify(text.slice(0, 40))).toBe(nodeHex(text));
  });

  it('is the digest node:crypto gives for any string, lone surrogates included', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'grapheme' }), binaryString(), binaryString({ maxLength: 2000 })), (text) => {
        expect(sha256Hex(text)).toBe(nodeHex(text));
      }),
      { numRuns: 300 },
    );
  });
});

describe('the names and keys hashed with it', () => {
  it("are node:crypto's: the job history file, the engine and object_info cache files, a batch line's key", async () => {
    const baseUrl = 'https://xn--bcher-kva.example/ü/路径?q=1';
    expect(basename(new JobHistory('/state', 'prod-eu', baseUrl).path)).toBe(`jobs-${nodeHex(`prod-eu\n${baseUrl}`).slice(0, 16)}`);
    expect(lineId('/data/jobs.jsonl', 3, '{"1":{}}', ['1.seed=2'])).toBe(`wes-batch-${nodeHex(JSON.stringify(['/data/jobs.jsonl', 3, '{"1":{}}', ['1.seed=2']])).slice(0, 48)}`);
    const cfg = tempConfigDir();
    try {
      const store = new ProfileStore(cfg.dir);
      await new EngineCache(store, 'default').write(baseUrl, { kind: 'cloud', version: null });
      await new ObjectInfoCache(store, 'default', baseUrl).write('{}');
      const file = `${nodeHex(baseUrl).slice(0, 32)}.json`;
      expect(await readdir(store.cacheDir('default', 'engines'))).toEqual([file]);
      expect(await readdir(store.cacheDir('default', 'object-info'))).toEqual([file]);
    } finally {
      cfg.cleanup();
    }
  });
});
