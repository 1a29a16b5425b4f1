// The dev-server describes its node classes as ComfyUI's engine does, field for field, so
// `wes workflows convert|validate` are tested against it as against a real server.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useDevServer, v1Auth } from '../helpers/dev-server.js';

const ENGINE = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'workflows', 'comfyui-0.3.18-object_info.subset.json'), 'utf8')) as Record<string, Record<string, unknown>>;
const ctx = useDevServer({ apiKey: 'k-object-info' });

describe('GET /api/object_info', () => {
  it('gives every class the fields the engine sends, with input_order naming every required and optional input', async () => {
    const res = await fetch(`${ctx.server.url}/api/object_info`, { headers: v1Auth(ctx.server) });
    expect(res.status).toBe(200);
    const info = (await res.json()) as Record<string, Record<string, any>>;
    const engineKeys = Object.keys(ENGINE.SaveImage!).sort();
    expect(Object.keys(info).length).toBeGreaterThan(3);
    for (const [name, def] of Object.entries(info)) {
      expect(Object.keys(def).sort(), name).toEqual(engineKeys);
      expect(def.name).toBe(name);
      for (const group of ['required', 'optional'] as const) {
        expect(def.input_order[group] ?? [], `${name} ${group}`).toEqual(Object.keys(def.input[group] ?? {}));
      }
      expect(def.output_is_list).toEqual(def.output.map(() => false));
      expect(def.output_name).toHaveLength(def.output.length);
    }
  });
});
