// A scripted model router catalog for verb unit tests: pages by cursor, every call recorded.
import { ApiError } from '../../../src/errors.js';
import type { RouterModelListEntry, RouterModelListResponse } from '../../../src/protocol/models.js';
import type { Call } from './jobs.js';

export function model(id: string, charges = 'no'): RouterModelListEntry {
  const [provider, name] = id.split('/') as [string, string];
  return { id, provider, model: name, billing: { charges_on_policy_rejection: charges } };
}

export class FakeModelsClient {
  readonly calls: Call[] = [];
  /** Thrown by every page read instead of answering. */
  failure?: ApiError;

  /** `pages[i]` answers cursor `c<i>` (the first, no cursor); each but the last says has_more. */
  constructor(private readonly pages: RouterModelListEntry[][]) {}

  private page(params: { limit?: number; cursor?: string }): RouterModelListResponse {
    if (this.failure) throw this.failure;
    const at = params.cursor === undefined ? 0 : Number(params.cursor.slice(1));
    const more = at < this.pages.length - 1;
    return { data: this.pages[at] ?? [], has_more: more, ...(more ? { next_cursor: `c${at + 1}` } : {}), limit: params.limit ?? 20 };
  }

  async listPage(params: { limit?: number; cursor?: string } = {}): Promise<RouterModelListResponse> {
    this.calls.push({ method: 'listPage', args: [params] });
    return this.page(params);
  }

  async listPageThenEntries(params: { limit?: number; cursor?: string } = {}): Promise<{ page: RouterModelListResponse; checkEntries: () => void }> {
    this.calls.push({ method: 'listPageThenEntries', args: [params] });
    return { page: this.page(params), checkEntries: () => undefined };
  }
}
