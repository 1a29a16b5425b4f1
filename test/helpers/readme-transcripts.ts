// The README's transcripts are real output (issue 29, item 17). A ```console block marked with
// `<!-- transcript: SETUP -->` on the line before it is run: its `$ command` lines one after another
// in one bash, in a fresh folder holding the README's example files (test/fixtures/readme/), with `wes` on the PATH
// (the built bin/wes.js) pointed at a fresh dev-server, stdout and stderr interleaved as a pipe
// shows them. What a rerun cannot repeat is normalised on both sides: ids, hashes, times, ports,
// temp paths; in-flight progress lines (`7eb42581 running 43% · …`) are dropped, tabs and runs of
// spaces are one space, and a line `…` (or `...`) in the README stands for any lines. An id printed by one
// command and typed into a later one is replaced by the id this run printed.
//
// To check another block: put `<!-- transcript: cloud -->` on the line before its ```console
// fence, give it the files it uses in test/fixtures/readme/, and paste the real output (`npm run
// build`, then this test prints the output it got when a block does not match).
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PNG } from 'pngjs';
import { sharedCacheDir, WES_BIN } from './cli.js';
import type { DevServerHandle } from '../../src/dev-server/index.js';

const ROOT = resolve(import.meta.dirname, '../..');
export const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
export const FIXTURES = join(ROOT, 'test/fixtures/readme');

export interface Transcript {
  setup: string;
  /** Line of the fence in README.md, for messages. */
  line: number;
  steps: Array<{ command: string; output: string[] }>;
}

export function transcripts(): Transcript[] {
  const lines = README.split('\n');
  const found: Transcript[] = [];
  for (let i = 1; i < lines.length; i++) {
    const marker = /^<!-- transcript: (\S+) -->$/.exec(lines[i - 1]!.trim());
    if (!marker || lines[i] !== '```console') continue;
    const steps: Transcript['steps'] = [];
    for (let j = i + 1; j < lines.length && lines[j] !== '```'; j++) {
      const line = lines[j]!;
      if (line.startsWith('$ ')) steps.push({ command: line.slice(2), output: [] });
      else steps.at(-1)?.output.push(line);
    }
    found.push({ setup: marker[1]!, line: i + 1, steps });
  }
  return found;
}

/** Every `$ command` of every checked transcript, with the transcript it is in. */
export function transcriptSteps(): Array<{ transcript: Transcript; command: string; output: string[] }> {
  return transcripts().flatMap((transcript) => transcript.steps.map((step) => ({ transcript, ...step })));
}

export const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** A temp folder's path: the README shows /tmp, a run prints its own temp folder (`npm test` may put it in memory: scripts/test-env.mjs). */
const TEMP_PATH = new RegExp(`(${tmpdir().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}|/tmp)/[^\\s/]+`, 'g');

/** One line as both sides are compared. */
function normalise(line: string): string {
  return line
    .replace(UUID, '<uuid>')
    .replace(/^[0-9a-f]{8}(?= )/, '<id>')
    .replace(/\b[0-9a-f]{32,}\b/g, '<hex>')
    .replace(TEMP_PATH, '<tmp>')
    .replace(/\b\d{4}-\d\d-\d\dT[\d:.]+Z\b/g, '<time>')
    .replace(/(127\.0\.0\.1|localhost):\d+/g, '$1:<port>')
    .replace(/\b\d+(\.\d+)? (ms|s)\b/g, '<duration>')
    .replace(/…[0-9a-f]{4} \(\d+ chars\)/g, '<masked>')
    .replace(/[ \t]+/g, ' ')
    .trimEnd();
}

/** In-flight progress lines: how many a run prints depends on timing. */
const PROGRESS = /^[0-9a-f]{8} (queued|running|canceling)\b|^prompt \S+: (checking|running|executing|node \S+ step)/;

/** An output committed while a job runs (`+ NAME (…)`): where it falls among the status lines depends on timing too. */
const COMMITTED = /^\+ /;

/**
 * A command's lines as compared: in sequence, and the committed outputs apart (in any order). Runs
 * of equal lines count as one: a transcript that cuts lines short (`--json | cut -c1-80`) shows
 * one `running` Job where a slower run prints two that differ only past the cut (their progress).
 */
export function comparable(lines: string[]): { sequence: string[]; committed: string[] } {
  const kept = lines.filter((l) => !PROGRESS.test(l)).map(normalise).filter((l, i, all) => l !== '' || i < all.length - 1);
  const sequence = kept.filter((l) => !COMMITTED.test(l)).filter((l, i, all) => i === 0 || l !== all[i - 1]);
  return { sequence, committed: kept.filter((l) => COMMITTED.test(l)).sort() };
}

/** Whether `actual` is `expected`, where an expected line `…` stands for any lines. */
export function matches(expected: string[], actual: string[]): boolean {
  const memo = new Map<string, boolean>();
  const go = (e: number, a: number): boolean => {
    const key = `${e},${a}`;
    if (memo.has(key)) return memo.get(key)!;
    let result: boolean;
    if (e === expected.length) result = a === actual.length;
    else if (expected[e] === '…' || expected[e] === '...') result = go(e + 1, a) || (a < actual.length && go(e, a + 1));
    else result = a < actual.length && expected[e] === actual[a] && go(e + 1, a + 1);
    memo.set(key, result);
    return result;
  };
  return go(0, 0);
}

/** A small real PNG (the dev-server's LoadImage decodes what it is given). */
function png(width: number, height: number): Buffer {
  const image = new PNG({ width, height });
  for (let i = 0; i < image.data.length; i += 4) image.data.set([i % 251, 90, 200, 255], i);
  return PNG.sync.write(image);
}

let mask: Buffer | undefined;

/** mask.bin's 300 000 bytes, made once and filled in place (an array of 300 000 numbers first was about 0.1 s of CPU for each transcript). */
function maskBytes(): Buffer {
  if (!mask) {
    mask = Buffer.alloc(300_000);
    for (let i = 0; i < mask.length; i++) mask[i] = (i * 7) % 256;
  }
  return mask;
}

/** The folder a transcript runs in: the README's example files, and `wes` on the PATH. */
export function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'wes-readme-'));
  for (const file of readdirSync(FIXTURES)) copyFileSync(join(FIXTURES, file), join(dir, file));
  writeFileSync(join(dir, 'kitten.png'), png(64, 64));
  writeFileSync(join(dir, 'photo.png'), png(96, 96));
  writeFileSync(join(dir, 'mask.bin'), maskBytes());
  writeFileSync(join(dir, 'wes'), `#!/bin/sh\nexec "${process.execPath}" "${WES_BIN}" "$@"\n`, { mode: 0o755 });
  return dir;
}

const STATUS = '@@wes-readme-status@@';
const STATUS_LINE = new RegExp(`${STATUS}\\d+\\n`);

/** A transcript's shell: one bash for all its commands, as a reader types them one after another. */
export interface TranscriptShell {
  /** One command: its stdout and stderr as one pipe shows them (its exit status is the next command's `$?`). */
  run(command: string): Promise<string[]>;
  close(): void;
}

/**
 * One bash, in `dir`, against `server`, that runs a transcript's commands in turn (a process per
 * command cost each a fork of the test worker, hundreds of MB, and a bash start). A command gets
 * stdin from /dev/null, and `2>&1` as it would be typed after it (for a pipeline, its last
 * command's stderr; the others' goes to bash's own stderr, which is not shown).
 */
export function transcriptShell(dir: string, server: DevServerHandle): TranscriptShell {
  const env: NodeJS.ProcessEnv = {
    PATH: `${dir}:${process.env.PATH}`,
    HOME: dir,
    WES_CONFIG_DIR: join(dir, '.config'),
    // The tests' one code cache (test/helpers/cli.ts): each transcript's fresh config folder would
    // otherwise start its first command of every verb cold, compiling and saving the code again.
    WES_CACHE_DIR: sharedCacheDir(),
    WES_BASE_URL: server.url,
    WES_API_KEY: server.apiKey!,
    NO_COLOR: '1',
    LANG: 'C.UTF-8',
  };
  // Not a synchronous spawn: the dev-server answers from this process's event loop.
  const bash = spawn('bash', ['--noprofile', '--norc'], { cwd: dir, env, stdio: ['pipe', 'pipe', 'ignore'] });
  bash.stdout.setEncoding('utf8');
  let out = '';
  let waiting: ((error?: Error) => void) | undefined;
  bash.stdout.on('data', (chunk: string) => {
    out += chunk;
    if (STATUS_LINE.test(out)) waiting?.();
  });
  bash.on('close', (code, signal) => waiting?.(new Error(`bash ended (${signal ?? code}) before the command did`)));
  return {
    async run(command) {
      out = '';
      const done = new Promise<void>((resolvePromise, reject) => {
        const timer = setTimeout(() => reject(new Error(`\`${command}\` did not end within 120 s:\n${out}`)), 120_000);
        waiting = (error) => {
          clearTimeout(timer);
          waiting = undefined;
          if (error) reject(error);
          else resolvePromise();
        };
      });
      bash.stdin.write(`{ ${command} 2>&1\n} </dev/null; __wes_status=$?; printf '\\n${STATUS}%s\\n' $__wes_status; (exit $__wes_status)\n`);
      await done;
      return out.slice(0, out.lastIndexOf(STATUS)).replace(/\n+$/, '').split('\n');
    },
    close() {
      bash.stdin.end();
      bash.kill();
    },
  };
}
