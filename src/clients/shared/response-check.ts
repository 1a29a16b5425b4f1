// Every answer is untrusted: the clients of each API family check the fields they rely on, and a malformed
// answer becomes one clear error (exit 1) instead of a crash later on.
import type { HttpResponse } from '../../http/client.js';
import { ExitCode, WesError, type ErrorOrigin } from '../../errors.js';

/** Ids are printed bare and put in commands to copy: printable ASCII only (a UUID qualifies). */
export const SAFE_ID = /^[\x21-\x7e]{1,1024}$/;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function badResponse(origin: ErrorOrigin, what: string, res: HttpResponse<unknown>): WesError {
  return new WesError(`unreadable response from ${res.url.origin}: ${what}`, {
    exitCode: ExitCode.ERROR,
    code: 'bad_response',
    status: res.status,
    requestId: res.requestId,
    origin,
  });
}
