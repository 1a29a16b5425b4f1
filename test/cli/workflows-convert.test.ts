// `wes workflows convert|validate` and `--convert` run in-process: offline against the
// real engine's definitions (test/fixtures/workflows), and against the dev-server's /api/object_info.
import { chmodSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJsonExact, stringifyJsonExact } from '../../src/util/exact-json.js';
import { runWes, tempConfigDir } from '../helpers/cli.js';
import { countOf, LEGACY_KEY, useLegacyServer } from './legacy-kit.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'workflows');
const kit = useLegacyServer({ apiKey: LEGACY_KEY, stepMs: 1 }, 'wes-workflows-');

/** A case fixture's UI workflow as a file, written from its exact text so big numbers keep their digits. */
function caseFile(name: string): { path: string; expected: unknown } {
  const value = parseJsonExact(readFileSync(join(FIXTURES, name), 'utf8')) as { ui: unknown; expected: unknown };
  return { path: kit.file(name.replace('.case', '.ui'), stringifyJsonExact(value.ui)), expected: value.expected };
}

/** The fixture definitions (0.3.18 classes and the later primitive nodes) as one object_info file. */
function objectInfoFile(): string {
  const merged = { ...(parseJsonExact(readFileSync(join(FIXTURES, 'comfyui-0.3.18-object_info.subset.json'), 'utf8')) as object), ...(parseJsonExact(readFileSync(join(FIXTURES, 'primitive-nodes.object_info.json'), 'utf8')) as object) };
  return kit.file('object_info.json', stringifyJsonExact(merged));
}

/** A UI-format workflow of the dev-server's classes: EmptyImage → Reroute → Sample (seed widget + control) → SaveImage. */
function devUiWorkflow(seed: number | string = 7): string {
  return `{"last_node_id":4,"last_link_id":3,"nodes":[
    {"id":1,"type":"EmptyImage","mode":0,"outputs":[{"name":"IMAGE","type":"IMAGE","links":[1]}],"widgets_values":[16,16,1,3368652]},
    {"id":2,"type":"Reroute","mode":0,"inputs":[{"name":"","type":"*","link":1}],"outputs":[{"name":"","type":"IMAGE","links":[2]}]},
    {"id":3,"type":"Sample","mode":0,"inputs":[{"name":"image","type":"IMAGE","link":2}],"outputs":[{"name":"IMAGE","type":"IMAGE","links":[3]}],"widgets_values":[2,${seed},"fixed",0.5,"euler"]},
    {"id":4,"type":"SaveImage","mode":0,"inputs":[{"name":"images","type":"IMAGE","link":3}],"widgets_values":["converted"]}],
    "links":[[1,1,0,2,0,"IMAGE"],[2,2,0,3,0,"*"],[3,3,0,4,0,"IMAGE"]],"groups":[],"config":{},"extra":{},"version":0.4}`;
}

describe('wes workflows convert, offline with --object-info', () => {
  it('prints the editor\'s export of its default graph, and writes it with -o', async () => {
    const { path, expected } = caseFile('default-graph.case.json');
    const info = objectInfoFile();
    const res = await runWes(['workflows', 'convert', path, '--object-info', info]);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual(expected);
    expect(res.stderr).toContain('converted');
    const out = join(kit.dir, 'api.json');
    const written = await runWes(['workflows', 'convert', path, '--object-info', info, '-o', out]);
    expect(written.code, written.stderr).toBe(0);
    expect(written.stdout).toBe('');
    expect(readFileSync(out, 'utf8')).toBe(res.stdout);
  });

  it('keeps 64-bit seeds digit for digit from standard input', async () => {
    const { path } = caseFile('converted-widget-seed64.case.json');
    const res = await runWes(['workflows', 'convert', '-', '--object-info', objectInfoFile()], { input: readFileSync(path) });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/"value": 18446744073709551615\b/);
    expect(res.stdout).toMatch(/"seed": 18446744073709551614\b/);
    expect(res.stdout).toMatch(/"noise_seed": \[\s*"1",\s*0\s*\]/);
  });

  it('lists every problem with node, class and what, and exits 2', async () => {
    const ui = kit.file('bad.json', {
      nodes: [
        { id: 1, type: 'NoSuchNode', mode: 0 },
        { id: 2, type: 'SaveImage', mode: 0, inputs: [{ name: 'images', type: 'IMAGE', link: 5 }], widgets_values: ['x'] },
        { id: 3, type: 'EmptyImage', mode: 0, widgets_values: [1, 2] },
      ],
      links: [[5, 42, 0, 2, 0, 'IMAGE']],
    });
    const res = await runWes(['workflows', 'convert', ui, '--object-info', objectInfoFile()]);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain('cannot be converted exactly: 3 problem(s)');
    expect(res.stderr).toMatch(/^1\tNoSuchNode\tconversion\tunknown node class/m);
    expect(res.stderr).toMatch(/^2\tSaveImage\tconversion\tinput images is linked to node 42, which is not in the workflow/m);
    expect(res.stderr).toMatch(/^3\tEmptyImage\tconversion\twidgets_values has 2 value\(s\) but EmptyImage takes 4/m);
  });

  it('refuses an object_info file that is not one (exit 2)', async () => {
    const res = await runWes(['workflows', 'convert', caseFile('default-graph.case.json').path, '--object-info', kit.file('not-info.json', '[1]')]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('not an object_info document');
  });
});

describe('wes workflows validate', () => {
  it('accepts a valid workflow in either format and lists every problem of a bad one (exit 6)', async () => {
    const info = objectInfoFile();
    const ok = await runWes(['workflows', 'validate', caseFile('reroute-note.case.json').path, '--object-info', info]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stderr).toContain('is valid');
    const bad = kit.file('bad-api.json', {
      '1': { class_type: 'EmptyImage', inputs: { width: 0, height: 99999, batch_size: 1 } },
      '2': { class_type: 'KSampler', inputs: { seed: '18446744073709551616', steps: 20, cfg: 8, sampler_name: 'nope', scheduler: 'normal', denoise: 1, model: ['1', 0], positive: ['1', 0], negative: ['1', 0], latent_image: ['1', 0] } },
      '3': { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'x' } },
      '4': { class_type: 'PreviewImage', inputs: { images: ['2', 0] } },
    });
    const res = await runWes(['workflows', 'validate', bad, '--object-info', info, '--json']);
    expect(res.code).toBe(6);
    const report = JSON.parse(res.stdout);
    expect(report.valid).toBe(false);
    const types = (id: string) => report.node_errors[id].errors.map((e: { type: string }) => e.type);
    expect(types('1')).toEqual(['value_smaller_than_min', 'value_bigger_than_max', 'required_input_missing']);
    expect(types('2')).toEqual(['return_type_mismatch', 'value_bigger_than_max', 'value_not_in_list', 'return_type_mismatch', 'return_type_mismatch', 'return_type_mismatch']);
    expect(JSON.parse(res.stderr).error.code).toBe('prompt_outputs_failed_validation');
  });

  it('takes 2^64-1 as a seed, the max of KSampler\'s seed in the engine\'s object_info', async () => {
    const wf = kit.file('seed-max.json', '{"1":{"class_type":"PrimitiveInt","inputs":{"value":18446744073709551615}},"2":{"class_type":"KSampler","inputs":{"seed":18446744073709551615,"steps":1,"cfg":1,"sampler_name":"euler","scheduler":"normal","denoise":1,"model":["1",0]}}}');
    const res = await runWes(['workflows', 'validate', wf, '--object-info', objectInfoFile(), '--json']);
    const report = JSON.parse(res.stdout);
    expect(report.errors).toEqual([{ type: 'prompt_no_outputs', message: 'Prompt has no outputs', details: '' }]);
  });
});

describe('against the dev-server\'s /api/object_info', () => {
  it('converts with the server\'s definitions, cached per base URL; --refresh asks again', async () => {
    const cfg = tempConfigDir();
    try {
      const ui = kit.file('dev-ui.json', devUiWorkflow());
      const before = countOf(kit.server, 'GET /api/object_info');
      const first = await kit.wes(['workflows', 'convert', ui], { configDir: cfg.dir });
      expect(first.code, first.stderr).toBe(0);
      expect(JSON.parse(first.stdout)).toEqual({
        '1': { inputs: { width: 16, height: 16, batch_size: 1, color: 3368652 }, class_type: 'EmptyImage', _meta: { title: 'EmptyImage' } },
        '3': { inputs: { steps: 2, seed: 7, denoise: 0.5, sampler_name: 'euler', image: ['1', 0] }, class_type: 'Sample', _meta: { title: 'Sample' } },
        '4': { inputs: { filename_prefix: 'converted', images: ['3', 0] }, class_type: 'SaveImage', _meta: { title: 'Save Image' } },
      });
      expect(countOf(kit.server, 'GET /api/object_info')).toBe(before + 1);
      const second = await kit.wes(['workflows', 'convert', ui], { configDir: cfg.dir });
      expect(second.stdout).toBe(first.stdout);
      expect(countOf(kit.server, 'GET /api/object_info')).toBe(before + 1);
      const refreshed = await kit.wes(['workflows', 'convert', ui, '--refresh'], { configDir: cfg.dir });
      expect(refreshed.code).toBe(0);
      expect(countOf(kit.server, 'GET /api/object_info')).toBe(before + 2);
      const cacheDir = join(cfg.dir, 'cache', 'default', 'object-info');
      const entries = readdirSync(cacheDir);
      expect(entries).toHaveLength(1);
      expect(statSync(join(cacheDir, entries[0]!)).mode & 0o777).toBe(0o600);
    } finally {
      cfg.cleanup();
    }
  });

  it('never writes the cache through a link planted at its name', async () => {
    const cfg = tempConfigDir();
    try {
      const ui = kit.file('dev-ui-link.json', devUiWorkflow());
      expect((await kit.wes(['workflows', 'convert', ui], { configDir: cfg.dir })).code).toBe(0);
      const cacheDir = join(cfg.dir, 'cache', 'default', 'object-info');
      const cached = join(cacheDir, readdirSync(cacheDir)[0]!);
      const victim = kit.file('victim.txt', 'keep me');
      chmodSync(victim, 0o644);
      unlinkSync(cached);
      symlinkSync(victim, cached);
      const res = await kit.wes(['workflows', 'convert', ui, '--refresh'], { configDir: cfg.dir });
      expect(res.code, res.stderr).toBe(0);
      expect(readFileSync(victim, 'utf8')).toBe('keep me');
      expect(lstatSync(cached).isSymbolicLink()).toBe(false);
    } finally {
      cfg.cleanup();
    }
  });

  it('a server without /api/object_info is named, with the offline way as the hint', async () => {
    const ui = kit.file('dev-ui-404.json', devUiWorkflow());
    const res = await kit.wes(['workflows', 'convert', ui], { env: { WES_BASE_URL: `${kit.server.url}/no-such-prefix` } });
    expect(res.code).toBe(5);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/hint: .*--object-info FILE/);
  });

  it('jobs submit refuses the UI format naming --convert (exit 2, nothing sent); with --convert the job runs', async () => {
    const ui = kit.file('dev-ui-submit.json', devUiWorkflow());
    const submits = countOf(kit.server, 'POST /api/v2/jobs');
    const refused = await kit.wes(['jobs', 'submit', ui]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/hint: add --convert/);
    expect(countOf(kit.server, 'POST /api/v2/jobs')).toBe(submits);
    const res = await kit.wes(['jobs', 'submit', ui, '--convert', '--wait']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain('converted');
    expect(res.stderr).toMatch(/succeeded/);
  });

  it('a workflow with a subgraph runs after --convert, its inner nodes under <subgraph node>:<inner> ids', async () => {
    const ui = kit.file('dev-subgraph.json', {
      nodes: [
        { id: 1, type: 'EmptyImage', mode: 0, outputs: [{ name: 'IMAGE', type: 'IMAGE', links: [1] }], widgets_values: [16, 16, 1, 255] },
        { id: 10, type: 'sg-1', mode: 0, inputs: [{ name: 'image', type: 'IMAGE', link: 1 }, { name: 'seed', type: 'INT', link: null, widget: { name: 'seed' } }], outputs: [{ name: 'IMAGE', type: 'IMAGE', links: [2] }], widgets_values: [99] },
        { id: 2, type: 'SaveImage', mode: 0, inputs: [{ name: 'images', type: 'IMAGE', link: 2 }], widgets_values: ['from-subgraph'] },
      ],
      links: [[1, 1, 0, 10, 0, 'IMAGE'], [2, 10, 0, 2, 0, 'IMAGE']],
      definitions: {
        subgraphs: [{
          id: 'sg-1', name: 'sampler', inputNode: { id: -10 }, outputNode: { id: -20 },
          inputs: [{ name: 'image', type: 'IMAGE', linkIds: [3] }, { name: 'seed', type: 'INT', linkIds: [5] }],
          outputs: [{ name: 'IMAGE', type: 'IMAGE', linkIds: [4] }],
          nodes: [{ id: 5, type: 'Sample', mode: 0, inputs: [{ name: 'image', type: 'IMAGE', link: 3 }, { name: 'seed', type: 'INT', link: 5, widget: { name: 'seed' } }], outputs: [{ name: 'IMAGE', type: 'IMAGE', links: [4] }], widgets_values: [2, 7, 'fixed', 0.5, 'euler'] }],
          links: [
            { id: 3, origin_id: -10, origin_slot: 0, target_id: 5, target_slot: 0, type: 'IMAGE' },
            { id: 5, origin_id: -10, origin_slot: 1, target_id: 5, target_slot: 1, type: 'INT' },
            { id: 4, origin_id: 5, origin_slot: 0, target_id: -20, target_slot: 0, type: 'IMAGE' },
          ],
        }],
      },
    });
    const converted = await kit.wes(['workflows', 'convert', ui]);
    expect(converted.code, converted.stderr).toBe(0);
    expect(JSON.parse(converted.stdout)['10:5'].inputs).toEqual({ steps: 2, seed: 99, denoise: 0.5, sampler_name: 'euler', image: ['1', 0] });
    const res = await kit.wes(['jobs', 'submit', ui, '--convert', '--wait']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(/from-subgraph_00001_\.png/);
  });

  it('legacy prompt --convert converts before sending; a conversion problem stops it before any request', async () => {
    const ui = kit.file('dev-ui-legacy.json', devUiWorkflow());
    const res = await kit.wes(['legacy', 'prompt', ui, '--convert', '--wait']);
    expect(res.code, res.stderr).toBe(0);
    const bad = kit.file('dev-ui-bad.json', devUiWorkflow().replace('"Sample"', '"LoraLoader"'));
    const prompts = countOf(kit.server, 'POST /api/prompt');
    const refused = await kit.wes(['legacy', 'prompt', bad, '--convert']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^3\tLoraLoader\tconversion\tunknown node class/m);
    expect(countOf(kit.server, 'POST /api/prompt')).toBe(prompts);
  });
});

describe('validate lists the problems the server lists', () => {
  it('gives the same nodes and error types as the dev-server\'s refusal of the same workflow', async () => {
    const bad = kit.file('dev-ui-invalid.json', devUiWorkflow().replace('"euler"', '"euler_a"').replace('[16,16,', '[0,16,'));
    const local = await kit.wes(['workflows', 'validate', bad, '--json']);
    expect(local.code).toBe(6);
    const localErrors = JSON.parse(local.stdout).node_errors as Record<string, { errors: { type: string }[] }>;
    const sent = await kit.wes(['legacy', 'prompt', bad, '--convert', '--json', '--quiet']);
    expect(sent.code).toBe(6);
    const serverErrors = JSON.parse(sent.stderr).error.details.node_errors as Record<string, { errors: { type: string }[] }>;
    const types = (errors: typeof localErrors) => Object.fromEntries(Object.entries(errors).map(([node, e]) => [node, e.errors.map((x) => x.type)]));
    expect(types(localErrors)).toEqual({ '1': ['value_smaller_than_min'], '3': ['value_not_in_list'] });
    expect(types(serverErrors)).toEqual(types(localErrors));
  });
});
