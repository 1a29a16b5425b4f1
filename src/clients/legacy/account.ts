// The account behind the v1 credential (GET /api/user, openapi-cloud.yaml getUser): its status,
// `active` or `waitlisted`. A ComfyUI engine has no such route (404, recorded on 0.3.18 and 0.3.64).
import type { HttpClient } from '../../http/client.js';
import { isRecord } from '../shared/response-check.js';

export interface Account {
  status: string;
}

export class AccountClient {
  constructor(private readonly http: HttpClient) {}

  /** The account; null where the server does not serve the route, or says nothing readable. */
  async user(): Promise<Account | null> {
    const res = await this.http.buffer({ family: 'legacy', url: '/api/user', accept: [404], retries: 1 });
    if (res.status !== 200) return null;
    try {
      const body: unknown = JSON.parse(res.body.toString('utf8'));
      return isRecord(body) && typeof body.status === 'string' ? { ...body, status: body.status } : null;
    } catch {
      return null;
    }
  }
}
