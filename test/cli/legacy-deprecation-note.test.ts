// The note naming the job API v2 equivalent of a `wes legacy` command is said only where the
// server has one: the cloud, or a self-hosted job API server in front of an engine (its base URL,
// with the engine at the engine URL; or one origin serving both). A bare ComfyUI engine has no
// v2, so no note there, from the first command of a fresh configuration on (the server is probed
// once and remembered), `queue` and `object-info` included.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/cli.js';
import { startFast } from '../helpers/dev-server.js';
import { sampleWorkflow, submit } from '../dev-server/legacy-kit.js';
import { countOf, useLegacyServer } from './legacy-kit.js';

const NOTE = /note: `wes legacy \S+` uses the deprecated cloud API v1; v2 equivalent: /;
const ANY_NOTE = /^note: .*(v2 equivalent|job API v2)/m;
const cloud = useLegacyServer({ stepMs: 3 }, 'wes-note-cloud-');
const engine = useLegacyServer({ deployment: 'self-hosted', engineOnly: true, stepMs: 3 }, 'wes-note-engine-');
const both = useLegacyServer({ deployment: 'self-hosted', stepMs: 3 }, 'wes-note-both-');

describe('the v1 deprecation note', () => {
  it('on the cloud: said once, whether the engine setting says cloud or is left to auto', async () => {
    for (const env of [{}, { WES_ENGINE: 'cloud' }]) {
      const cfg = tempConfigDir();
      try {
        const res = await cloud.wes(['legacy', 'queue'], { env, configDir: cfg.dir });
        expect(res.code, res.stderr).toBe(0);
        expect(res.stderr.match(new RegExp(NOTE, 'g')), JSON.stringify(env)).toHaveLength(1);
      } finally {
        cfg.cleanup();
      }
    }
  });

  it('once a day per command (issue 38, item 8): not again the same day, again the next day, each command its own', async () => {
    const cfg = tempConfigDir();
    try {
      const first = await cloud.wes(['legacy', 'queue'], { configDir: cfg.dir });
      expect(first.stderr).toMatch(NOTE);
      const again = await cloud.wes(['legacy', 'queue'], { configDir: cfg.dir });
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).not.toMatch(ANY_NOTE);
      // Another command names another replacement: its own note, once.
      const list = await cloud.wes(['legacy', 'list'], { configDir: cfg.dir });
      expect(list.stderr).toContain('note: `wes legacy list` uses the deprecated cloud API v1');
      // A day later (the remembered time moved back a day): said again.
      const notes = join(cfg.dir, 'cache', 'default', 'legacy-notes.json');
      const said = JSON.parse(readFileSync(notes, 'utf8')) as Record<string, number>;
      writeFileSync(notes, JSON.stringify({ ...said, queue: said.queue! - 24 * 60 * 60 * 1000 - 1 }));
      const nextDay = await cloud.wes(['legacy', 'queue'], { configDir: cfg.dir });
      expect(nextDay.stderr).toMatch(NOTE);
    } finally {
      cfg.cleanup();
    }
  });

  it('on a bare engine named by the engine setting (env or --engine): none, and no system_stats probe', async () => {
    const probes = countOf(engine.server, 'GET /api/system_stats');
    for (const [args, env] of [[['legacy', 'queue'], { WES_ENGINE: 'self-hosted' }], [['legacy', 'queue', '--engine', 'self-hosted'], {}]] as const) {
      const res = await engine.wes([...args], { env });
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).not.toMatch(ANY_NOTE);
    }
    expect(countOf(engine.server, 'GET /api/system_stats')).toBe(probes);
  });

  it('on a bare engine left to auto: none from the first command of a fresh configuration, queue and object-info included, probed once', async () => {
    for (const verb of [['queue'], ['object-info', 'EmptyImage'], ['list']]) {
      const cfg = tempConfigDir();
      try {
        const probes = countOf(engine.server, 'GET /api/system_stats');
        const first = await engine.wes(['legacy', ...verb], { configDir: cfg.dir });
        expect(first.code, first.stderr).toBe(0);
        expect(first.stderr, verb.join(' ')).not.toMatch(ANY_NOTE);
        const again = await engine.wes(['legacy', ...verb], { configDir: cfg.dir });
        expect(again.stderr, verb.join(' ')).not.toMatch(ANY_NOTE);
        expect(countOf(engine.server, 'GET /api/system_stats') - probes, verb.join(' ')).toBe(1); // remembered
      } finally {
        cfg.cleanup();
      }
    }
  });

  it('says which server was found with --verbose', async () => {
    const id = await submit(engine.server, sampleWorkflow(1));
    const res = await engine.wes(['legacy', 'status', id, '--verbose']);
    expect(res.stderr).toMatch(/v1 server at http:\/\/127\.0\.0\.1:\d+\/: a self-hosted ComfyUI engine \(0\.3\.18\) \((found by a probe|remembered from an earlier probe)/);
  });

  it('where a job API v2 is served beside the engine (one origin, or a base URL in front of the engine URL): the v2 equivalent is named', async () => {
    const beside = await both.wes(['legacy', 'queue']);
    expect(beside.code, beside.stderr).toBe(0);
    expect(beside.stderr).toContain('note: this server also serves the job API v2; its equivalent of `wes legacy queue`: `wes jobs get ID`');
    const api = await startFast({ deployment: 'self-hosted', stepMs: 3 });
    try {
      const res = await engine.wes(['legacy', 'status', await submit(engine.server, sampleWorkflow(1)), '--wait'], { env: { WES_BASE_URL: api.url, WES_ENGINE_URL: engine.server.url } });
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toContain('note: this server also serves the job API v2; its equivalent of `wes legacy status`');
      expect(countOf(api, 'GET /api/queue')).toBe(0); // the v1 reads went to the engine URL
    } finally {
      await api.close();
    }
  });
});
