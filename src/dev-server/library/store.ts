// Comfy Cloud's asset library (openapi-cloud.yaml, tag `asset`): the account's models and inputs,
// each a record over content in the blob store, found by tags. In memory, one per dev-server.
import { randomUUID } from 'node:crypto';
import { perState } from '../per-state.js';
import type { LibraryAsset as PublishedAsset } from '../../protocol/library.js';

/** The published `Asset` schema (src/protocol/library.ts), every field present; no preview URL here. */
export type LibraryAsset = Required<Omit<PublishedAsset, 'preview_url'>>;

export class Library {
  readonly assets = new Map<string, LibraryAsset>();

  byHash(hash: string): LibraryAsset | undefined {
    for (const asset of this.assets.values()) if (asset.asset_hash === hash) return asset;
    return undefined;
  }

  add(fields: Pick<LibraryAsset, 'name' | 'asset_hash' | 'size' | 'mime_type' | 'tags' | 'user_metadata'> & { id?: string; preview_id?: string | null }): LibraryAsset {
    const now = new Date().toISOString();
    const asset: LibraryAsset = {
      ...fields,
      id: fields.id ?? randomUUID(),
      tags: [...new Set(fields.tags)],
      preview_id: fields.preview_id ?? null,
      prompt_id: null,
      created_at: now,
      updated_at: now,
      last_access_time: now,
      is_immutable: false,
    };
    this.assets.set(asset.id, asset);
    return asset;
  }
}

export const libraryOf = perState(() => new Library());
