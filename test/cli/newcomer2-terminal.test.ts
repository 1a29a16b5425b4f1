// What a person at a terminal sees when a command stops (issue 38, item 7): Ctrl-C during
// `models run` leaves no spinner frame behind, and with --jq the errors and stops on a terminal
// are sentences, not JSON (jq filters stdout's data; stderr is for the person).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useDevServer } from '../helpers/dev-server.js';
import { ESCAPE_RESIDUE, hasTmux, inTmux, lines, SPINNER, wesShell } from '../helpers/tmux.js';

describe.skipIf(!hasTmux)('stops and errors on a terminal (issue 38, item 7; skipped without tmux)', () => {
  // The router stops waiting for a run after 300 ms: `models run` then collects it, under a spinner.
  const dev = useDevServer({ stepMs: 5, routerDeadlineMs: 300 } as Parameters<typeof useDevServer>[0]);
  let dir: string;
  // Each test in a folder (and configuration) of its own: the six run side by side, each in its own tmux server.
  const shellIn = () => wesShell(mkdtempSync(join(dir, 'run-')), dev.server);

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'wes-stops-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.concurrent.each([40, 80, 100])('at %i columns: Ctrl-C during models run leaves no spinner frame', async (width) => {
    const script = [shellIn(), `wes models run dev/slow -d '{"duration_ms":8000}' -o out.json; echo "RUN:$?"`].join('; ');
    const screen = await inTmux(script, /RUN:\d+/, width, 30_000, { when: SPINNER, keys: 'C-c' });
    // The spinner was up before the stop (else this proves nothing), and is gone after it.
    expect(screen.frames.some((f) => SPINNER.test(f)), screen.frames.join('\n----\n')).toBe(true);
    expect(screen.final, screen.final).not.toMatch(SPINNER);
    expect(screen.final).not.toMatch(ESCAPE_RESIDUE);
    expect(lines(screen.final)).toContain('RUN:130');
    expect(screen.final).toMatch(/^interrupted/m);
  });

  it.concurrent.each([40, 80, 100])('at %i columns: with --jq, an error and a Ctrl-C are said in words; details.resume stays runnable off the terminal', async (width) => {
    const script = [
      shellIn(),
      // The terminal would echo the key as `^C` at the start of wes's next line.
      'stty -echoctl',
      'wes jobs get 0000-no-such-job --jq .id; echo "GET:$?"',
      `wes models run dev/slow -d '{"duration_ms":8000}' --queue --wait --jq .; echo "RUN:$?"`,
    ].join('; ');
    // Ctrl-C once the router has answered the submit (a fixed delay raced a slow machine's start,
    // and a stop before the answer is the in-doubt case, said differently).
    const screen = await inTmux(script, /RUN:\d+/, width, 30_000, { when: /^queued dev\/slow as request /m, keys: 'C-c' });
    const final = lines(screen.final);
    expect(final).toEqual(expect.arrayContaining(['GET:5', 'RUN:130']));
    expect(screen.final, screen.final).not.toContain('{"error"');
    expect(screen.final).toMatch(/^error: /m);
    expect(screen.final, screen.final).toMatch(/^interrupted: request \S+ of dev\/slow keeps running/m);
    expect(screen.final).toMatch(/^resume with: wes models result dev\/slow \S+ --wait/m);
  });
});
