// The note that `wes legacy` uses the deprecated cloud API v1 is for the cloud only. A self-hosted
// ComfyUI engine's /api is its own current API: once wes knows it talks to one (the engine setting,
// or an earlier probe still cached), no note. An unknown server is taken as the cloud, as
// everywhere in wes, and is not probed just to decide about a note.
import { describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/cli.js';
import { sampleWorkflow, submit } from '../dev-server/legacy-kit.js';
import { countOf, useLegacyServer } from './legacy-kit.js';

const NOTE = /note: `wes legacy \S+` uses the deprecated cloud API v1; v2 equivalent: /;
const cloud = useLegacyServer({ stepMs: 3 }, 'wes-note-cloud-');
const engine = useLegacyServer({ deployment: 'self-hosted', engineOnly: true, stepMs: 3 }, 'wes-note-engine-');

describe('the v1 deprecation note', () => {
  it('on the cloud: said once, whether the engine setting says cloud or is left to auto', async () => {
    for (const env of [{}, { WES_ENGINE: 'cloud' }]) {
      const res = await cloud.wes(['legacy', 'queue'], { env });
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr.match(new RegExp(NOTE, 'g')), JSON.stringify(env)).toHaveLength(1);
    }
  });

  it('on a self-hosted engine named by the engine setting (env or --engine): none, and nothing probed for it', async () => {
    const probes = countOf(engine.server, 'GET /api/system_stats');
    for (const [args, env] of [[['legacy', 'queue'], { WES_ENGINE: 'self-hosted' }], [['legacy', 'queue', '--engine', 'self-hosted'], {}]] as const) {
      const res = await engine.wes([...args], { env });
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).not.toMatch(NOTE);
    }
    expect(countOf(engine.server, 'GET /api/system_stats')).toBe(probes);
  });

  it('on a self-hosted engine found by a probe (auto): none once it is known, from the next command on', async () => {
    const cfg = tempConfigDir();
    try {
      const id = await submit(engine.server, sampleWorkflow(1));
      const first = await engine.wes(['legacy', 'status', id], { configDir: cfg.dir });
      expect(first.code, first.stderr).toBe(0);
      expect(first.stderr).toMatch(NOTE); // not known yet: taken as the cloud, as before the probe
      for (const verb of [['status', id], ['queue'], ['object-info', 'EmptyImage']]) {
        const res = await engine.wes(['legacy', ...verb], { configDir: cfg.dir });
        expect(res.code, res.stderr).toBe(0);
        expect(res.stderr, verb.join(' ')).not.toMatch(NOTE);
      }
    } finally {
      cfg.cleanup();
    }
  });
});
