// `jobs workflow` and `jobs rerun` against the published workflow sub-resource
// (`GET /api/v2/jobs/{id}/workflow` → {workflow, format}): the graph printed or written with its
// numbers exact and its format said; a rerun submits it as a new job through submit's own path
// (--set, a new key, the history, --wait), converting a `save`-format one as --convert does.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJsonExact, stringifyJsonExact } from '../../src/util/exact-json.js';
import { runWes, tempConfigDir } from '../helpers/cli.js';
import { jobJson, useFakeJobApi } from './fake-job-api.js';
import { useTempDir } from './jobs-env.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'workflows');
const SEED = '18446744073709551615';
/** The recorded reference server's answer for job A, with a 64-bit seed. */
const API_ANSWER = `{"workflow": {"4": {"class_type": "EmptyLatentImage", "inputs": {"width": 64, "height": 64, "batch_size": 1}}, "5": {"class_type": "KSampler", "inputs": {"latent_image": ["4", 0], "seed": ${SEED}, "steps": 8}}}, "format": "api"}`;

describe('jobs workflow and jobs rerun', () => {
  const api = useFakeJobApi();
  const dir = useTempDir();
  const wes = (args: string[], configDir?: string) => runWes(args, { env: { WES_BASE_URL: api().url }, configDir });

  it('workflow prints the graph with every digit, says its format; -o writes it; --json is the answer unchanged', async () => {
    api().add({ state: jobJson('wf-api', 'succeeded'), workflow: API_ANSWER });
    const res = await wes(['jobs', 'workflow', 'wf-api']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain(`"seed": ${SEED}`);
    expect(parseJsonExact(res.stdout)).toEqual((parseJsonExact(API_ANSWER) as { workflow: unknown }).workflow);
    expect(res.stderr).toBe('format: api (the API-format graph the job ran; run it again with: wes jobs rerun wf-api)\n');

    const out = join(dir(), 'wf.json');
    const written = await wes(['jobs', 'workflow', 'wf-api', '-o', out]);
    expect(written.code, written.stderr).toBe(0);
    expect(written.stdout).toBe('');
    expect(readFileSync(out, 'utf8')).toBe(res.stdout);
    writeFileSync(out, '{}');
    const refused = await wes(['jobs', 'workflow', 'wf-api', '-o', out]);
    expect(refused.code).toBe(1);
    expect(readFileSync(out, 'utf8')).toBe('{}');
    expect((await wes(['jobs', 'workflow', 'wf-api', '-o', out, '--clobber'])).code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(res.stdout);

    const asJson = await wes(['jobs', 'workflow', 'wf-api', '--json']);
    expect(asJson.stdout).toContain(`"seed":${SEED}`);
    expect(parseJsonExact(asJson.stdout)).toEqual(parseJsonExact(API_ANSWER));
  });

  it('rerun submits the api-format workflow as a new job, --set applied, numbers exact; the history names it', async () => {
    api().add({ state: jobJson('to-rerun', 'succeeded'), workflow: API_ANSWER });
    api().onSubmit = (_body, n) => ({ state: jobJson(`rerun-${n}`, 'succeeded') });
    const cfg = tempConfigDir();
    try {
      const res = await wes(['jobs', 'rerun', 'to-rerun', '--set', '5.steps=20', '--wait'], cfg.dir);
      expect(res.code, res.stderr).toBe(0);
      const sent = api().submits.at(-1)!;
      expect(sent.text).toContain(`"seed":${SEED}`);
      expect((sent.body as { workflow: Record<string, { inputs: Record<string, unknown> }> }).workflow['5']!.inputs.steps).toBe(20);
      const newId = `rerun-${api().submits.length}`;
      expect(res.stdout).toBe(`${newId}\n`);
      expect(res.stderr).toContain('submitting the api-format workflow of job to-rerun again');
      expect(res.stderr).toContain(`job ${newId} succeeded`);
      const list = JSON.parse((await wes(['jobs', 'list', '--json'], cfg.dir)).stdout) as Array<{ id: string; source: string; status: string }>;
      expect(list[0]).toMatchObject({ id: newId, source: 'rerun to-rerun', status: 'succeeded' });
    } finally {
      cfg.cleanup();
    }
  });

  it('rerun converts a save-format workflow first, as --convert does', async () => {
    const { ui, expected } = parseJsonExact(readFileSync(join(FIXTURES, 'default-graph.case.json'), 'utf8')) as { ui: unknown; expected: unknown };
    api().add({ state: jobJson('saved-one', 'succeeded'), workflow: `{"workflow": ${stringifyJsonExact(ui)}, "format": "save"}` });
    api().onSubmit = (_body, n) => ({ state: jobJson(`converted-${n}`, 'queued') });
    const info = join(dir(), 'object_info.json');
    writeFileSync(info, readFileSync(join(FIXTURES, 'comfyui-0.3.18-object_info.subset.json')));
    const res = await wes(['jobs', 'rerun', 'saved-one', '--object-info', info]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain('converted the saved workflow of job saved-one from the UI format');
    expect((api().submits.at(-1)!.body as { workflow: unknown }).workflow).toEqual(expected);

    const shown = await wes(['jobs', 'workflow', 'saved-one']);
    expect(shown.stderr).toContain('format: save (the editor\'s saved graph; wes jobs rerun saved-one converts it to the API format first');
  });

  it('a workflow whose format and shape disagree is refused before anything is sent; an unknown job says so', async () => {
    api().add({ state: jobJson('liar', 'succeeded'), workflow: { workflow: { nodes: [], links: [] }, format: 'api' } });
    const before = api().submits.length;
    const res = await wes(['jobs', 'rerun', 'liar']);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('the workflow of job liar cannot be submitted again');
    expect(api().submits.length).toBe(before);
    const missing = await wes(['jobs', 'rerun', 'no-such-job']);
    expect(missing.code).toBe(5);
  });
});
