// Output ids as the reference self-hosted server writes them: an opaque, signed token naming the
// job and file (base64url JSON, a dot, a base64url HMAC), far longer than a UUID. Clients must
// take any id as an opaque string; the hosted deployments keep UUIDs.
import { createHmac } from 'node:crypto';

export function opaqueOutputId(key: Buffer, fields: { job: string; index: number; name: string; subfolder: string }): string {
  const payload = Buffer.from(JSON.stringify({ j: fields.job, i: fields.index, f: fields.name, s: fields.subfolder, t: 'output' })).toString('base64url');
  return `${payload}.${createHmac('sha256', key).update(payload).digest('base64url')}`;
}
