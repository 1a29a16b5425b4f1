// Opaque page cursors: an HMAC-signed {catalog generation, position, page number}. They are meant
// to look like real service cursors, so they always carry `+`, `/`, `=`, `.` and `~` (characters a
// client must pass back untouched, e.g. not URL-decode `+` into a space).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { CURSOR_MAX, CURSOR_PATTERN } from '../../protocol/model-ids.js';

export interface CursorState {
  generation: number;
  position: number;
  page: number;
}

export type CursorVerdict = { ok: true; state: CursorState } | { ok: false; reason: 'malformed' | 'stale' };

const SHAPE = /^c1\.([A-Za-z0-9+/]+={0,2})~([A-Za-z0-9+/]+={0,2})$/;

function mac(key: Buffer, body: string): string {
  return createHmac('sha256', key).update(body).digest('base64');
}

export function encodeCursor(key: Buffer, state: CursorState): string {
  let cursor = '';
  // A salt varies the bytes until both `+` and `/` appear; a few tries suffice.
  for (let salt = 0; salt < 256; salt++) {
    const body = Buffer.from(JSON.stringify({ g: state.generation, p: state.position, k: state.page, s: salt })).toString('base64');
    cursor = `c1.${body}~${mac(key, body)}`;
    if (cursor.includes('+') && cursor.includes('/')) break;
  }
  return cursor;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

export function decodeCursor(key: Buffer, text: string, generation: number): CursorVerdict {
  if (text.length === 0 || text.length > CURSOR_MAX || !CURSOR_PATTERN.test(text)) return { ok: false, reason: 'malformed' };
  const match = SHAPE.exec(text);
  if (!match) return { ok: false, reason: 'malformed' };
  const [, body, signature] = match as unknown as [string, string, string];
  const want = Buffer.from(mac(key, body));
  const got = Buffer.from(signature);
  if (want.length !== got.length || !timingSafeEqual(want, got)) return { ok: false, reason: 'malformed' };
  let payload: { g?: unknown; p?: unknown; k?: unknown };
  try {
    payload = JSON.parse(Buffer.from(body, 'base64').toString('utf8')) as typeof payload;
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (!isCount(payload.g) || !isCount(payload.p) || !isCount(payload.k)) return { ok: false, reason: 'malformed' };
  if (payload.g !== generation) return { ok: false, reason: 'stale' };
  return { ok: true, state: { generation: payload.g, position: payload.p, page: payload.k } };
}
