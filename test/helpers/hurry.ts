// Hurrying the dev-server's engine (each step at 1 ms) while a test only waits for a job's end. A
// job's length is often the window something must happen in (wes starts, attaches, is interrupted);
// once that has happened, the steps left are idle time. The order of what happens is kept; only
// time runs faster. Never hurry while waiting for `queued` or `running`: a job could run past them.
import type { DevServerHandle } from '../../src/dev-server/index.js';
import { until } from './until.js';

/** Runs `body` with the engine's steps at `stepMs`; the server's own pace again afterwards. */
export async function atPace<T>(server: DevServerHandle, stepMs: number, body: () => Promise<T>): Promise<T> {
  const pace = server.state.options.stepMs;
  server.state.options.stepMs = stepMs;
  try {
    return await body();
  } finally {
    server.state.options.stepMs = pace;
  }
}

/** Runs `wait` with the engine hurried; the server's own pace again afterwards. */
export function hurried<T>(server: DevServerHandle, wait: () => Promise<T>): Promise<T> {
  return atPace(server, 1, wait);
}

/** Awaits `run`, hurrying the engine from the moment `from` holds (if it comes before `run` ends). */
export async function hurriedFrom<T>(server: DevServerHandle, from: () => boolean, run: Promise<T>): Promise<T> {
  const stepMs = server.state.options.stepMs;
  let ended = false;
  const hurry = until(() => ended || from(), 'the moment to hurry the engine', 60_000).then(() => {
    if (!ended) server.state.options.stepMs = 1;
  });
  try {
    return await run;
  } finally {
    ended = true;
    await hurry;
    server.state.options.stepMs = stepMs;
  }
}
