// Help that keeps up with the code (issue 29, item 17): every WES_* variable the code reads is in
// `wes help environment` and in the README, with the proxy variables; `help formatting` covers
// --jq and the JSON shapes; every job verb that takes an id says it takes @last and @N.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runWes } from '../helpers/cli.js';

const ROOT = resolve(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

/** Every WES_* name in the sources, but for the one shell variable an example pipes in. */
const READ = [...new Set(sources(join(ROOT, 'src')).flatMap((file) => readFileSync(file, 'utf8').match(/\bWES_[A-Z0-9_]+\b/g) ?? []))].filter((name) => name !== 'WES_KEY').sort();
const NETWORK = ['HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY', 'NODE_EXTRA_CA_CERTS'];

describe('help topics and the README follow the code', () => {
  it('finds the variables it checks', () => {
    expect(READ).toEqual(expect.arrayContaining(['WES_STATE_DIR', 'WES_PICTURES', 'WES_BLAKE3', 'WES_PROXY_LOOPBACK', 'WES_CODE_CACHE']));
  });

  it('help environment names every variable wes reads', async () => {
    const env = (await runWes(['help', 'environment'])).stdout;
    for (const name of [...READ, ...NETWORK]) expect(env, name).toContain(name);
  });

  it('the README names them too', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    for (const name of [...READ, ...NETWORK]) expect(readme, name).toContain(name);
  });

  it('help formatting covers --jq and the JSON shapes of wes\'s own output', async () => {
    const text = (await runWes(['help', 'formatting'])).stdout;
    expect(text).toContain('--jq EXPR');
    for (const shape of ['{name, path, bytes, hash, verified, asset_id}', '{id, status, submitted_at, seen_at, source}', '{index, job_id, status, outputs, error, idempotency_key, endpoint?, line_id,', '{code, meaning}']) expect(text).toContain(shape);
  });

  it.each(['get', 'watch', 'cancel', 'logs', 'download'])('jobs %s --help says it takes @last and @N', async (verb) => {
    const help = (await runWes(['jobs', verb, '--help'])).stdout;
    expect(help).toContain('@last');
    expect(help).toContain('@N');
  });
});
