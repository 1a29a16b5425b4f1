// A self-hosted engine's history read as a prompt state, and the per-base-URL engine cache.
import { statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { ProfileStore } from '../../src/config/store.js';
import { EngineCache, ENGINE_CACHE_TTL_MS } from '../../src/clients/legacy/engine-cache.js';
import { engineVersionOf } from '../../src/clients/legacy/engine.js';
import { stateOfHistory } from '../../src/clients/legacy/prompt-state.js';
import { tempConfigDir } from '../helpers/cli.js';
import { fixture } from '../helpers/comfyui-fixtures.js';

describe('stateOfHistory', () => {
  const recorded = fixture('history-success.json').PROMPT;

  it('reads a success with the outputs the history lists', () => {
    expect(stateOfHistory(recorded)).toEqual({
      status: 'success',
      outcome: { kind: 'success' },
      outputs: [{ node: '3', kind: 'images', filename: 'ComfyUI_00001_.png', subfolder: '', type: 'output' }],
    });
  });

  it('reads an interrupted run (status_str error with execution_interrupted) as cancelled', () => {
    const messages = [...recorded.status.messages.slice(0, 2), ['execution_interrupted', { prompt_id: 'PROMPT', node_id: '2', node_type: 'ImageInvert', executed: ['1'], timestamp: 1 }]];
    const state = stateOfHistory({ ...recorded, outputs: {}, status: { status_str: 'error', completed: false, messages } });
    expect([state.status, state.outcome]).toEqual(['cancelled', { kind: 'interrupted' }]);
  });

  it('reads a runtime failure as error with the exception the engine recorded', () => {
    const error = fixture('ws-error.json').messages[6].data;
    const state = stateOfHistory({ ...recorded, outputs: {}, status: { status_str: 'error', completed: false, messages: [['execution_error', error]] } });
    expect(state.status).toBe('error');
    expect(state.outcome).toMatchObject({ kind: 'error', exceptionType: 'RuntimeError', exceptionMessage: 'boom on purpose', nodeId: '2', nodeType: 'ImageInvert' });
  });
});

describe('engineVersionOf', () => {
  it('takes a plain version from system_stats and nothing else', () => {
    expect(engineVersionOf(fixture('system-stats.json'))).toBe('0.3.18');
    expect(engineVersionOf({ system: { comfyui_version: '1.0\u001b[31m' } })).toBeNull();
    expect(engineVersionOf({ error: { code: 'not_found' } })).toBeNull();
  });
});

describe('EngineCache', () => {
  it('remembers a probe per base URL for a short time, in a private file', async () => {
    const cfg = tempConfigDir();
    try {
      let now = 1_000_000;
      const cache = new EngineCache(new ProfileStore(cfg.dir), 'default', () => now);
      await cache.write('http://127.0.0.1:8188', { kind: 'self-hosted', version: '0.3.18' });
      expect(await cache.read('http://127.0.0.1:8188')).toEqual({ kind: 'self-hosted', version: '0.3.18' });
      expect(await cache.read('http://127.0.0.1:8189')).toBeUndefined();
      const folder = new ProfileStore(cfg.dir).cacheDir('default', 'engines');
      const files = await readdir(folder);
      expect(files).toHaveLength(1); // no temp file left behind
      expect(statSync(`${folder}/${files[0]}`).mode & 0o777).toBe(0o600);
      now += ENGINE_CACHE_TTL_MS;
      expect(await cache.read('http://127.0.0.1:8188')).toBeUndefined();
    } finally {
      cfg.cleanup();
    }
  });

  it('keeps whether a job API v2 is served beside the engine, for the base URL it was asked at only', async () => {
    const cfg = tempConfigDir();
    try {
      const cache = new EngineCache(new ProfileStore(cfg.dir), 'default');
      await cache.write('http://127.0.0.1:8188', { kind: 'self-hosted', version: '0.3.64', jobApi: true }, 'http://127.0.0.1:8193');
      expect(await cache.read('http://127.0.0.1:8188', 'http://127.0.0.1:8193')).toEqual({ kind: 'self-hosted', version: '0.3.64', jobApi: true });
      expect(await cache.read('http://127.0.0.1:8188', 'http://127.0.0.1:8188')).toEqual({ kind: 'self-hosted', version: '0.3.64' });
    } finally {
      cfg.cleanup();
    }
  });
});

describe('engineVersionOf and the cloud', () => {
  it('takes a system_stats answer with the cloud\'s own version as no engine\'s', () => {
    expect(engineVersionOf({ system: { comfyui_version: '0.3.60', cloud_version: 'abc123' } })).toBeNull();
  });
});
