// v1 status names and upload naming: the pure rules behind GET /api/job/{id}/status and uploads.
import { describe, expect, it } from 'vitest';
import type { EngineJob, StoredOutput } from '../../src/dev-server/contract.js';
import { settleMs, v1Status } from '../../src/dev-server/legacy/status.js';
import { chooseUploadName, flatName } from '../../src/dev-server/legacy/upload.js';
import { isV1Terminal } from '../../src/protocol/legacy.js';

const T0 = Date.parse('2025-01-01T00:00:00.000Z');
type Fields = Pick<EngineJob, 'status' | 'created_at' | 'started_at' | 'error'>;

function job(fields: Partial<Fields>): Fields {
  return { status: 'queued', created_at: new Date(T0).toISOString(), started_at: null, error: null, ...fields };
}

describe('v1Status', () => {
  const clock = (elapsed: number) => ({ now: T0 + elapsed, settleMs: 100 });

  it('names the first moments of a queued job `submitted`, then `queued_waiting`', () => {
    expect(v1Status(job({}), clock(10))).toBe('submitted');
    expect(v1Status(job({}), clock(150))).toBe('queued_waiting');
  });

  it('names a running job `preparing` briefly, then `executing`', () => {
    const started = job({ status: 'running', started_at: new Date(T0 + 1000).toISOString() });
    expect(v1Status(started, clock(1050))).toBe('preparing');
    expect(v1Status(started, clock(1200))).toBe('executing');
  });

  it('keeps the phases in order when a free slot starts the job at once', () => {
    const startedAtOnce = job({ status: 'running', started_at: new Date(T0 + 1).toISOString() });
    expect([10, 150, 250].map((t) => v1Status(startedAtOnce, clock(t)))).toEqual(['submitted', 'preparing', 'executing']);
  });

  it('maps the rest of the engine states onto the v1 names', () => {
    expect(v1Status(job({ status: 'canceling' }), clock(0))).toBe('cancel_requested');
    expect(v1Status(job({ status: 'succeeded' }), clock(0))).toBe('success');
    expect(v1Status(job({ status: 'canceled' }), clock(0))).toBe('cancelled');
    expect(v1Status(job({ status: 'expired' }), clock(0))).toBe('lost');
    expect(v1Status(job({ status: 'failed', error: { code: 'node_failed', message: 'boom' } }), clock(0))).toBe('error');
    expect(v1Status(job({ status: 'failed', error: { code: 'ValidationError', message: 'bad' } }), clock(0))).toBe('non_retryable_error');
    expect(v1Status(job({ status: 'failed', error: { code: 'invalid_workflow', message: 'bad' } }), clock(0))).toBe('non_retryable_error');
    expect(v1Status(job({ status: 'failed', error: { code: 'execution_error', message: 'bad', exception_type: 'ValidationError' } }), clock(0))).toBe('non_retryable_error');
  });

  it('gives terminal names only to terminal engine states', () => {
    for (const status of ['queued', 'running', 'canceling'] as const) expect(isV1Terminal(v1Status(job({ status }), clock(500)))).toBe(false);
    for (const status of ['succeeded', 'failed', 'canceled', 'expired'] as const) expect(isV1Terminal(v1Status(job({ status }), clock(500)))).toBe(true);
  });

  it('keeps the short phases observable at tiny step times', () => {
    expect(settleMs(1)).toBe(50);
    expect(settleMs(40)).toBe(80);
  });
});

describe('upload naming', () => {
  const records = new Map<string, string>(); // file_path -> hash
  const blobs = { findAssetByPath: (path: string) => (records.has(path) ? ({ blobHash: records.get(path) } as StoredOutput) : undefined) };

  it('keeps only the last path segment of the client name, without control characters', () => {
    expect(flatName('../../etc/passwd')).toBe('passwd');
    expect(flatName('C:\\pics\\cat.png')).toBe('cat.png');
    expect(flatName('a\u0007b.png')).toBe('ab.png');
    expect(flatName('dir/')).toBe('');
  });

  it('numbers a taken name like the local engine, and reuses a name holding the same bytes', () => {
    records.clear();
    expect(chooseUploadName(blobs, 'cat.png', 'h1', false)).toEqual({ name: 'cat.png', existing: null });
    records.set('cat.png', 'h1');
    expect(chooseUploadName(blobs, 'cat.png', 'h1', false).name).toBe('cat.png');
    expect(chooseUploadName(blobs, 'cat.png', 'h1', false).existing).not.toBeNull();
    expect(chooseUploadName(blobs, 'cat.png', 'h2', false)).toEqual({ name: 'cat (1).png', existing: null });
    records.set('cat (1).png', 'h2');
    expect(chooseUploadName(blobs, 'cat.png', 'h3', false).name).toBe('cat (2).png');
    expect(chooseUploadName(blobs, 'cat.png', 'h2', false).name).toBe('cat (1).png');
    expect(chooseUploadName(blobs, 'cat.png', 'h3', true)).toEqual({ name: 'cat.png', existing: null });
    records.set('README', 'x');
    expect(chooseUploadName(blobs, 'README', 'y', false).name).toBe('README (1)');
  });
});
