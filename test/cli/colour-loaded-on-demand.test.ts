// chalk (and the node:tty its terminal detection loads) is loaded only when a stream gets colour:
// `jobs get --json` into a pipe, as scripts and the bench run it, never loads it. Which files of
// the built CLI a run loaded comes from Node's own module debug lines (NODE_DEBUG=esm,module: ES
// modules and CommonJS alike); the chunk holding chalk is found by a message of chalk's own.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bytesWorkflow, submitJob, useDevServer, waitForJob } from '../helpers/dev-server.js';
import { useTempDir, wesAgainst } from './jobs-env.js';

const DIST = resolve(import.meta.dirname, '../../dist');
const PRELOAD = join(import.meta.dirname, '../fixtures/start-up/list-loaded-builtins.cjs');
const CHALK_MARKER = 'option should be an integer from 0 to 3';

/** The built files that hold chalk's code. */
function chalkFiles(): string[] {
  const files = readdirSync(DIST, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js')).map((f) => join(DIST, f));
  return files.filter((file) => readFileSync(file, 'utf8').includes(CHALK_MARKER));
}

/** Files of dist/ named in Node's module debug lines. */
function loadedFiles(stderr: string): Set<string> {
  const paths = stderr.split(`${DIST}/`).slice(1).map((rest) => /^[^\s'"]+?\.js/.exec(rest)?.[0]);
  return new Set(paths.filter((path) => path !== undefined).map((path) => join(DIST, path)));
}

describe('colour styles load only for a stream that gets colour', () => {
  const ctx = useDevServer({});
  const wes = wesAgainst(() => ctx.server);
  const dir = useTempDir();

  it('`jobs get --json` into a pipe loads neither chalk nor node:tty; forced colour loads chalk and colours the error', async () => {
    const chalk = chalkFiles();
    expect(chalk.length).toBeGreaterThan(0); // the marker still finds chalk in the build
    const id = (await submitJob(ctx.server, bytesWorkflow(1024))).body.id as string;
    await waitForJob(ctx.server, `/api/v2/jobs/${id}`, ['succeeded']);
    const list = join(dir(), 'builtins.txt');
    const piped = await wes(['jobs', 'get', id, '--json'], { env: { NODE_DEBUG: 'esm,module', NODE_OPTIONS: `--require ${PRELOAD}`, WES_TEST_BUILTINS_FILE: list } });
    expect(piped.code, piped.stderr).toBe(0);
    expect(JSON.parse(piped.stdout).id).toBe(id);
    const loaded = loadedFiles(piped.stderr);
    expect(loaded).toContain(join(DIST, 'cli.js')); // the list is real
    for (const file of chalk) expect(loaded).not.toContain(file);
    const builtins = readFileSync(list, 'utf8').split('\n');
    rmSync(list);
    expect(builtins).toContain('NativeModule net');
    expect(builtins).not.toContain('NativeModule tty');

    const forced = await wes(['jobs', 'get', 'no-such-job'], { env: { NODE_DEBUG: 'esm,module', CLICOLOR_FORCE: '1' } });
    expect(forced.code).toBe(5); // not found (`wes help exit-codes`)
    expect(forced.stderr).toContain('\u001b[31merror:\u001b[39m');
    expect(chalk.some((file) => loadedFiles(forced.stderr).has(file))).toBe(true);
  });
});
