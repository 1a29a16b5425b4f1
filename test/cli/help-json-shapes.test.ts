// `wes help formatting` lists the JSON shapes of wes's own output; each is checked here against what
// the command really prints with --json against a dev-server (as readme-transcripts.test.ts checks
// the README's transcripts), so the topic cannot drift from the code (issue 42). A key marked `?`
// is printed only when it applies.
import { describe, expect, it } from 'vitest';
import { runWes } from '../helpers/cli.js';
import { imageWorkflow, useDevServer } from '../helpers/dev-server.js';
import { useTempDir, writeTemp } from './jobs-env.js';
import { join } from 'node:path';

type Shape = { kind: 'object'; fields: Array<{ name: string; optional: boolean; shape?: Shape }> } | { kind: 'array'; item: Shape };

/** Parses the topic's notation: `{a, b?, c: [{d}]}`, `[{a}]`. */
function parseShape(text: string): Shape {
  let at = 0;
  const skip = () => {
    while (text[at] === ' ') at++;
  };
  const shape = (): Shape => {
    skip();
    if (text[at] === '[') {
      at++;
      const item = shape();
      skip();
      expect(text[at++], text).toBe(']');
      return { kind: 'array', item };
    }
    expect(text[at++], text).toBe('{');
    const fields: Array<{ name: string; optional: boolean; shape?: Shape }> = [];
    for (;;) {
      skip();
      const name = /^[a-z0-9_]+/.exec(text.slice(at))![0];
      at += name.length;
      const optional = text[at] === '?';
      if (optional) at++;
      skip();
      let inner: Shape | undefined;
      if (text[at] === ':') {
        at++;
        inner = shape();
        skip();
      }
      fields.push({ name, optional, shape: inner });
      if (text[at] === ',') at++;
      else break;
    }
    expect(text[at++], text).toBe('}');
    return { kind: 'object', fields };
  };
  return shape();
}

/** Where `value` differs from `shape`: keys missing, keys not listed, arrays that are not. */
function differences(value: unknown, shape: Shape, path = '$'): string[] {
  if (shape.kind === 'array') {
    if (!Array.isArray(value)) return [`${path}: not an array`];
    return value.flatMap((item, i) => differences(item, shape.item, `${path}[${i}]`));
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [`${path}: not an object`];
  const record = value as Record<string, unknown>;
  const out: string[] = [];
  for (const f of shape.fields) if (!f.optional && !(f.name in record)) out.push(`${path}.${f.name}: missing`);
  for (const key of Object.keys(record)) if (!shape.fields.some((f) => f.name === key)) out.push(`${path}.${key}: printed but not in the topic`);
  for (const f of shape.fields) if (f.shape && record[f.name] !== undefined && record[f.name] !== null) out.push(...differences(record[f.name], f.shape, `${path}.${f.name}`));
  return out;
}

/** The topic's shapes, by the command they are printed by. */
async function topicShapes(): Promise<Map<string, string>> {
  const text = (await runWes(['help', 'formatting'])).stdout;
  const lines = text.slice(text.indexOf('JSON shapes')).split('\n').slice(1);
  const entries = new Map<string, string>();
  let current: string | undefined;
  for (const line of lines) {
    if (line.trim() === '') break;
    const command = line.slice(0, 35).trim();
    if (command) current = command;
    entries.set(current!, `${entries.get(current!) ?? ''} ${line.slice(35).trim()}`);
  }
  return new Map([...entries].map(([command, rest]) => [command, rest.slice(rest.search(/[[{]/)).trim()]));
}

describe('help formatting: the JSON shapes are what the commands print', () => {
  const ctx = useDevServer({ stepMs: 2 });
  const dir = useTempDir();

  it('every shape the topic lists matches the command\'s --json output', async () => {
    const env = { WES_BASE_URL: ctx.server.url, WES_API_KEY: ctx.server.apiKey };
    const wes = async (args: string[]) => {
      const res = await runWes([...args, '--json'], { env, configDir: join(dir(), 'cfg') });
      expect(res.code, `${args.join(' ')}: ${res.stderr}`).toBe(0);
      return res.stdout;
    };
    const flow = writeTemp(dir(), imageWorkflow({ prefix: 'shapes', steps: 1 }));
    const id = (JSON.parse((await wes(['jobs', 'submit', flow, '--wait'])).trim().split('\n').at(-1)!) as { id: string }).id;
    const batch = writeTemp(dir(), [imageWorkflow({ prefix: 'b1', steps: 1 }), imageWorkflow({ prefix: 'b2', steps: 1 })].map((w) => JSON.stringify(w)).join('\n'), 'jsonl');
    const printed: Record<string, () => Promise<unknown[]>> = {
      'jobs download': async () => [JSON.parse(await wes(['jobs', 'download', id, join(dir(), 'out')]))],
      'jobs list': async () => [JSON.parse(await wes(['jobs', 'list']))],
      'jobs logs': async () => [JSON.parse(await wes(['jobs', 'logs', id]))],
      'jobs submit --batch': async () => (await wes(['jobs', 'submit', '--batch', batch, '--interval', '0.05'])).trim().split('\n').map((l) => JSON.parse(l)),
      'config list': async () => [JSON.parse(await wes(['config', 'list']))],
      'config get': async () => [JSON.parse(await wes(['config', 'get', 'base_url']))],
      'profiles list': async () => [JSON.parse(await wes(['profiles', 'list']))],
      'auth status': async () => [JSON.parse(await wes(['auth', 'status']))],
      'help exit-codes': async () => [JSON.parse(await wes(['help', 'exit-codes']))],
      version: async () => [JSON.parse(await wes(['version']))],
    };
    const shapes = await topicShapes();
    // Every shape is checked, but the Job snapshots (the service's own object).
    expect([...shapes.keys()].filter((c) => !(c in printed))).toEqual(['jobs submit --wait, jobs watch']);
    const found: string[] = [];
    for (const [command, print] of Object.entries(printed)) {
      const shape = parseShape(shapes.get(command)!);
      for (const value of await print()) found.push(...differences(value, shape).map((d) => `${command}: ${d}`));
    }
    expect(found).toEqual([]);
  }, 120_000);
});
