// The bench's one spawning process (bench/lib/measure.mjs): it starts every timed program and
// times it from its own clock, so that the wall time of a run does not depend on how much memory the
// bench itself holds. Node's spawn forks the process that calls it, and a fork costs in proportion
// to that process's memory: timed from the bench itself, a run of /bin/true took 2.0 ms while the
// bench held 50 MB and 16.0 ms at 350 MB (`node -e 0` 22.0 → 34.3 ms), which the cases that build,
// copy or hold large files (sea, models-run, download) added to both sides of their ratios.
// It holds only the output of the runs in flight and loads nothing but node:child_process and node:fs.
'use strict';
const { spawn } = require('node:child_process');
const { openSync, closeSync } = require('node:fs');

/** The runs in flight, each a process group of its own. */
const running = new Set();

function killGroup(child) {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

/** { id, file, argv, env, cwd, stdout: 'pipe' | 'ignore' | a path, timeoutMs } → { id, code, signal, wallMs, stdout, stderr, error? } */
function run({ id, file, argv, env, cwd, stdout, timeoutMs }) {
  let outFd = null;
  let child;
  let started;
  try {
    outFd = stdout !== 'pipe' && stdout !== 'ignore' ? openSync(stdout, 'w') : null;
    started = process.hrtime.bigint();
    // Own process group: a timeout kills GNU time and the command under it together.
    child = spawn(file, argv, { detached: true, env, cwd, stdio: ['ignore', outFd ?? stdout, 'pipe'] });
  } catch (error) {
    // A path that cannot be opened, an argument spawn refuses: this run fails, the others go on.
    if (outFd !== null) closeSync(outFd);
    process.send({ id, code: -1, wallMs: NaN, stdout: '', stderr: String(error), error: String(error) });
    return;
  }
  running.add(child);
  const out = [];
  const err = [];
  child.stdout?.on('data', (c) => out.push(c));
  child.stderr.on('data', (c) => err.push(c));
  const timer = setTimeout(() => killGroup(child), timeoutMs);
  let answered = false;
  const answer = (result) => {
    if (answered) return;
    answered = true;
    running.delete(child);
    clearTimeout(timer);
    if (outFd !== null) closeSync(outFd);
    process.send({ id, ...result });
  };
  child.on('error', (error) => answer({ code: -1, wallMs: NaN, stdout: '', stderr: String(error), error: String(error) }));
  child.on('close', (code, signal) => {
    const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
    answer({ code, signal, wallMs, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
  });
}

process.on('message', run);
// The bench has ended, or died: so does this, and so do the runs it left.
process.on('disconnect', () => {
  for (const child of running) killGroup(child);
  process.exit(0);
});
