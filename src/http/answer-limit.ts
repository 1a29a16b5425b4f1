// A bound on every answer wes holds in memory (JSON answers, error bodies, v1 WebSocket messages):
// a server must not decide how much memory wes takes. Past the limit wes stops reading and fails
// for good (no retry: the same server would send the same answer). Streamed downloads are not
// held in memory and keep no such limit; their declared size and hash bound them.
import type { Readable } from 'node:stream';
import { ExitCode, UsageError, WesError } from '../errors.js';
import { formatBytes } from '../util/byte-count.js';

export const DEFAULT_MAX_ANSWER_MIB = 64;
export const MAX_ANSWER_FLAG = '--max-answer-mib';
export const MAX_ANSWER_ENV = 'WES_MAX_ANSWER_MIB';
const MIB = 1024 * 1024;

export class AnswerTooLargeError extends WesError {
  constructor(origin: string, limitBytes: number, sentBytes?: number) {
    const size = sentBytes === undefined ? `an answer of more than ${formatBytes(limitBytes)}` : `a ${formatBytes(sentBytes)} answer`;
    super(`the service at ${origin} sent ${size}; the limit is ${formatBytes(limitBytes)}`, {
      exitCode: ExitCode.ERROR,
      code: 'answer_too_large',
      hint: `if an answer this large is expected, raise the limit with ${MAX_ANSWER_FLAG} N (or ${MAX_ANSWER_ENV})`,
    });
  }
}

/** The limit in bytes from --max-answer-mib or WES_MAX_ANSWER_MIB (a positive number of MiB). */
export function parseMaxAnswer(flag: string | undefined, env: string | undefined): number {
  const raw = flag ?? (env === '' ? undefined : env);
  if (raw === undefined) return DEFAULT_MAX_ANSWER_MIB * MIB;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || n > 1024 * 1024) {
    throw new UsageError(`${flag !== undefined ? MAX_ANSWER_FLAG : MAX_ANSWER_ENV} must be a positive number of MiB, got ${raw}`, `e.g. ${MAX_ANSWER_FLAG} 256`);
  }
  return Math.round(n * MIB);
}

/** The declared Content-Length (NaN when none); one past `limit` destroys the body and fails before any byte is read. */
export function declaredWithin(body: { destroy(): void }, limit: number, declaredLength: string | undefined, origin: string): number {
  const declared = declaredLength === undefined ? NaN : Number(declaredLength);
  if (Number.isFinite(declared) && declared > limit) {
    body.destroy();
    throw new AnswerTooLargeError(origin, limit, declared);
  }
  return declared;
}

/**
 * Reads a whole body, at most `limit` bytes. A declared Content-Length past the limit fails before
 * any byte is read; an undeclared body fails as soon as it passes the limit.
 */
export async function readBounded(body: Readable, limit: number, declaredLength: string | undefined, origin: string): Promise<Buffer> {
  declaredWithin(body, limit, declaredLength, origin);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      body.destroy();
      throw new AnswerTooLargeError(origin, limit);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks, size);
}
