// The editor's saved workflows, through the user-data routes of the v1 API (a ComfyUI engine's, and
// the cloud's as openapi-cloud.yaml publishes them): list, read, write, delete, move. Names go as one
// path segment, the whole path percent-encoded (`workflows%2Fmy%20flow.json`). Every answer is
// untrusted: listed names are checked by the caller before they are used.
import type { HttpClient, HttpResponse } from '../../http/client.js';
import { WORKFLOWS_DIR } from '../../workflows/saved-name.js';
import { badResponse, isRecord } from '../shared/response-check.js';

export interface SavedWorkflowEntry {
  /** Relative to the workflows folder, as the server sent it. */
  name: string;
  size: number | null;
  /** Epoch milliseconds; null when the server did not say. */
  modifiedMs: number | null;
}

export type WriteOutcome = 'written' | 'exists';
export type MoveOutcome = 'moved' | 'exists' | 'missing';

function file(path: string): string {
  return `/api/userdata/${encodeURIComponent(path)}`;
}

/** The engine sends epoch seconds (a float); the published cloud schema also allows a date-time. */
function modifiedMsOf(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value * 1000;
  if (typeof value === 'string') {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? null : ms;
  }
  return null;
}

function entryOf(value: unknown): SavedWorkflowEntry | undefined {
  if (typeof value === 'string') return { name: value, size: null, modifiedMs: null };
  if (!isRecord(value) || typeof value.path !== 'string') return undefined;
  const size = typeof value.size === 'number' && Number.isSafeInteger(value.size) && value.size >= 0 ? value.size : null;
  return { name: value.path, size, modifiedMs: modifiedMsOf(value.modified) };
}

export class SavedWorkflowsClient {
  constructor(private readonly http: HttpClient) {}

  /** Every saved workflow, subfolders included; none when the folder does not exist yet (404). */
  async list(): Promise<SavedWorkflowEntry[]> {
    const res = await this.http.buffer({
      family: 'legacy',
      url: '/api/userdata',
      // What the editor asks: the cloud ignores split and full_info (it always gives full information).
      query: { dir: `${WORKFLOWS_DIR}/`, recurse: 'true', split: 'false', full_info: 'true' },
      accept: [404],
    });
    if (res.status === 404) return [];
    const body = parsed(res);
    if (!Array.isArray(body)) throw badResponse('legacy', 'the user-data listing is not a JSON array', res);
    return body.map(entryOf).filter((e): e is SavedWorkflowEntry => e !== undefined);
  }

  /** The file's bytes exactly as saved; null when there is none. */
  async read(path: string): Promise<Buffer | null> {
    const res = await this.http.buffer({ family: 'legacy', url: file(path), accept: [404] });
    return res.status === 404 ? null : res.body;
  }

  /** Saves `bytes` under `path`; without `overwrite`, an existing file is left as it is ('exists'). */
  async write(path: string, bytes: Buffer, overwrite: boolean): Promise<WriteOutcome> {
    // The engine replaces by default: only the exact `overwrite=false` keeps an existing file.
    const res = await this.http.buffer({
      family: 'legacy',
      method: 'POST',
      url: file(path),
      query: { overwrite: overwrite ? 'true' : 'false' },
      headers: { 'content-type': 'application/json' },
      body: bytes,
      accept: [409],
    });
    return res.status === 409 ? 'exists' : 'written';
  }

  /** False when there was no such file. */
  async remove(path: string): Promise<boolean> {
    const res = await this.http.buffer({ family: 'legacy', method: 'DELETE', url: file(path), accept: [204, 404] });
    return res.status !== 404;
  }

  /** The engine's move route (the published cloud API has none: see SavedWorkflows.move). */
  async move(from: string, to: string, overwrite: boolean): Promise<MoveOutcome> {
    const res = await this.http.buffer({
      family: 'legacy',
      method: 'POST',
      url: `${file(from)}/move/${encodeURIComponent(to)}`,
      query: { overwrite: overwrite ? 'true' : 'false' },
      accept: [404, 409],
    });
    return res.status === 404 ? 'missing' : res.status === 409 ? 'exists' : 'moved';
  }
}

function parsed(res: HttpResponse<Buffer>): unknown {
  try {
    return JSON.parse(res.body.toString('utf8'));
  } catch {
    return undefined;
  }
}
