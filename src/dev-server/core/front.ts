// What every request on either listener goes through before its handler: the request id,
// the request log, the request counter, scripted faults, and a last-resort error answer.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DevState } from '../contract.js';
import { applyFault } from '../faults/apply.js';
import { DEV_PREFIX } from './dev-routes.js';
import { headerName } from './names.js';

export async function runFront(
  state: DevState,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  requestId: string,
  handle: () => Promise<void>,
  onError: (err: unknown) => void,
): Promise<void> {
  const started = Date.now();
  const method = req.method ?? 'GET';
  res.setHeader(headerName(state, 'requestId'), requestId);
  const log = state.options.log;
  if (log) res.on('close', () => log(`${method} ${req.url} ${res.headersSent ? res.statusCode : '---'} ${Date.now() - started}ms`));
  const control = path.startsWith(DEV_PREFIX);
  if (!control) {
    const key = `${method} ${path}`;
    state.requestCounts.set(key, (state.requestCounts.get(key) ?? 0) + 1);
  }
  try {
    if (!control && state.options.faults) {
      const spec = state.faults.take(method, path);
      if (spec && (await applyFault(spec, req, res)) === 'answered') return;
    }
    await handle();
  } catch (err) {
    if (!res.headersSent && !res.destroyed) {
      onError(err);
    } else {
      res.destroy();
    }
  }
}
