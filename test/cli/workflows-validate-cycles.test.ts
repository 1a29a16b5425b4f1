// `wes workflows validate` refuses a workflow whose links form a cycle (a node fed by its own
// output, or a longer loop), as the server does: a `dependency_cycle` node error on each node of
// the loop, the whole refused as prompt_outputs_failed_validation, exit 6 like any other refusal.
// Checked against the dev-server's refusal of the same workflow.
import { describe, expect, it } from 'vitest';
import { runWes } from '../helpers/cli.js';
import { LEGACY_KEY, useLegacyServer } from './legacy-kit.js';

const kit = useLegacyServer({ apiKey: LEGACY_KEY, stepMs: 1 }, 'wes-cycles-');

const sample = (image: string) => ({ class_type: 'Sample', inputs: { steps: 2, seed: 7, denoise: 0.5, sampler_name: 'euler', image: [image, 0] } });
const save = (images: string) => ({ class_type: 'SaveImage', inputs: { filename_prefix: 'loop', images: [images, 0] } });

type NodeErrors = Record<string, { errors: Array<{ type: string; message: string; details: string }> }>;
const types = (errors: NodeErrors) => Object.fromEntries(Object.entries(errors).map(([node, e]) => [node, e.errors.map((x) => x.type)]));

/** The local verdict and the dev-server's, for one API-format workflow. */
async function bothVerdicts(name: string, workflow: unknown): Promise<{ local: NodeErrors; server: NodeErrors; code: number | null; errorCode: string }> {
  const file = kit.file(name, workflow);
  const local = await kit.wes(['workflows', 'validate', file, '--json']);
  const sent = await kit.wes(['legacy', 'prompt', file, '--json', '--quiet']);
  expect(sent.code, sent.stderr).toBe(6);
  return {
    local: JSON.parse(local.stdout).node_errors,
    server: JSON.parse(sent.stderr).error.details.node_errors,
    code: local.code,
    errorCode: JSON.parse(local.stderr).error.code,
  };
}

describe('wes workflows validate and dependency cycles', () => {
  it('refuses a node whose input is its own output (exit 6), as the server does', async () => {
    const verdict = await bothVerdicts('self-loop.json', { '1': { class_type: 'EmptyImage', inputs: { width: 8, height: 8, batch_size: 1, color: 0 } }, '2': sample('2'), '3': save('2') });
    expect(verdict.code).toBe(6);
    expect(verdict.errorCode).toBe('prompt_outputs_failed_validation');
    expect(types(verdict.local)).toEqual({ '2': ['dependency_cycle'] });
    expect(verdict.local['2']!.errors[0]).toMatchObject({ message: 'Dependency cycle detected', details: '2 depends on 2' });
    expect(types(verdict.server)).toEqual(types(verdict.local));
  });

  it('refuses a longer loop, naming every node on it and not the nodes it feeds', async () => {
    const verdict = await bothVerdicts('ring.json', { '2': sample('4'), '3': sample('2'), '4': sample('3'), '5': sample('4'), '6': save('5') });
    expect(verdict.code).toBe(6);
    expect(types(verdict.local)).toEqual({ '2': ['dependency_cycle'], '3': ['dependency_cycle'], '4': ['dependency_cycle'] });
    expect(types(verdict.server)).toEqual(types(verdict.local));
  });

  it('finds a loop thousands of nodes long without exhausting the stack', async () => {
    const n = 20_000;
    const workflow: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) workflow[String(i)] = sample(String((i + n - 1) % n));
    workflow.out = save('0');
    const res = await runWes(['workflows', 'validate', kit.file('long-ring.json', workflow), '--object-info', kit.file('info.json', await (await fetch(`${kit.server.url}/api/object_info`, { headers: { 'X-API-Key': LEGACY_KEY } })).text()), '--json']);
    expect(res.code, res.stderr.slice(0, 500)).toBe(6);
    expect(Object.keys(JSON.parse(res.stdout).node_errors)).toHaveLength(n);
  });
});
