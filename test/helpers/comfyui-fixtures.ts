// The recorded answers of a self-hosted ComfyUI engine (test/fixtures/comfyui-selfhosted), and the
// comparisons the tests make against them: the same keys, and the same message order.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const FIXTURES = join(import.meta.dirname, '../fixtures/comfyui-selfhosted');

export function fixture<T = any>(name: string): T {
  return JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as T;
}

export interface WsMessage {
  type: string;
  data: any;
}

/**
 * A prompt's messages as a comparable sequence: `status` on connect (with `sid`) and `executing`
 * with `node: null` are told apart, per-node repeats (executing, progress) and repeated statuses
 * collapse to one, since a workflow's node count and the statuses' timing vary.
 */
export function messageOrder(messages: WsMessage[]): string[] {
  const names = messages
    .filter((m) => m.type !== 'progress')
    .map((m) => (m.type === 'status' && m.data?.sid !== undefined ? 'status(sid)' : m.type === 'executing' && m.data?.node === null ? 'executing(null)' : m.type));
  return names.filter((name, i) => name !== names[i - 1]);
}

/** Sorted keys of an object (and of its nested objects to `depth`), for "same shape" comparisons. */
export function keysOf(value: unknown, depth = 1): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return Array.isArray(value) ? 'array' : typeof value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = depth > 1 ? keysOf((value as Record<string, unknown>)[key], depth - 1) : true;
  return out;
}
