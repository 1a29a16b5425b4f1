// The dev-server the cases run against: started in-process from the built dist/dev-server.js on
// free ports, plus the few HTTP calls the harness makes itself to prepare fixtures (jobs with
// big outputs, v1 prompts) and to read the server's request counters.
import { setTimeout as sleep } from 'node:timers/promises';

const DIST = new URL('../../dist/dev-server.js', import.meta.url);

export async function startServer(options = {}) {
  const { startDevServer } = await import(DIST.href);
  const handle = await startDevServer({ port: 0, stepMs: 1, hashDelayMs: 0, ...options });
  return new BenchServer(handle);
}

export class BenchServer {
  constructor(handle) {
    this.handle = handle;
    this.url = handle.url;
    this.apiKey = handle.apiKey;
  }

  /** Environment for a `wes` child aimed at this server. */
  wesEnv(configDir) {
    return {
      ...process.env,
      WES_CONFIG_DIR: configDir,
      WES_BASE_URL: this.url,
      WES_ROUTER_URL: this.url,
      WES_API_KEY: this.apiKey,
      NO_COLOR: '1',
      WES_PROFILE: 'default',
    };
  }

  async request(method, path, { body, headers = {}, v1 = false } = {}) {
    const auth = v1 ? { 'x-api-key': this.apiKey } : { authorization: `Bearer ${this.apiKey}` };
    const response = await fetch(new URL(path, this.url), {
      method,
      headers: { ...auth, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let json = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: callers look at status
    }
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
    return json;
  }

  submitJob(workflow) {
    return this.request('POST', '/api/v2/jobs', { body: { workflow } });
  }

  getJob(id) {
    return this.request('GET', `/api/v2/jobs/${encodeURIComponent(id)}`);
  }

  /** Polls until the job is terminal and every output hash is known. */
  async waitJob(id, timeoutMs = 600_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const job = await this.getJob(id);
      const terminal = ['succeeded', 'failed', 'canceled', 'expired'].includes(job.status);
      if (terminal && job.outputs.every((o) => o.hash !== null)) return job;
      if (Date.now() > deadline) throw new Error(`job ${id} still ${job.status} after ${timeoutMs} ms`);
      await sleep(20);
    }
  }

  /** A finished job whose one output is a synthetic file of `sizeBytes` (SaveBytes). */
  async bytesJob(sizeBytes) {
    const job = await this.submitJob({ 1: { class_type: 'SaveBytes', inputs: { size_bytes: sizeBytes, content_type: 'application/octet-stream' } } });
    const done = await this.waitJob(job.id);
    if (done.status !== 'succeeded') throw new Error(`SaveBytes job ended ${done.status}: ${JSON.stringify(done.error)}`);
    return done;
  }

  /** Request counters by `METHOD path` (GET /__dev/requests). */
  requestCounts() {
    return this.request('GET', '/__dev/requests');
  }

  close() {
    return this.handle.close();
  }
}
