// Small fetch helpers for the router tests: a bearer, JSON bodies, and the headers they check.
export interface ModelsAnswer {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

export async function call(base: string, path: string, init: { token?: string | null; method?: string; body?: string | object; headers?: Record<string, string> } = {}): Promise<ModelsAnswer> {
  const headers: Record<string, string> = { ...init.headers };
  const token = init.token === undefined ? 'wes-dev-key' : init.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  let body: string | undefined;
  if (init.body !== undefined) {
    body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(base + path, { method: init.method ?? (body === undefined ? 'GET' : 'POST'), headers, body });
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

export function run(base: string, model: string, body: string | object, init: { token?: string; key?: string } = {}): Promise<ModelsAnswer> {
  return call(base, `/v1/models/${model}`, { token: init.token, body, headers: init.key ? { 'idempotency-key': init.key } : {} });
}
