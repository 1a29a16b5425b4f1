// Comfy Cloud's asset library on the cloud API v1, where the interface says "not shown": the
// published contract openapi-cloud.yaml (tag `asset`: schemas Asset, AssetCreated, AssetUpdated,
// ListAssetsResponse, TagInfo, ListTagsResponse, AssetTagHistogramResponse, TagsModificationResponse).

export interface LibraryAsset {
  id: string;
  name: string;
  /** `blake3:<64 hex>` */
  asset_hash?: string;
  size: number;
  mime_type?: string;
  tags?: string[];
  user_metadata?: Record<string, unknown>;
  preview_url?: string;
  preview_id?: string | null;
  prompt_id?: string | null;
  created_at: string;
  updated_at: string;
  last_access_time?: string;
  is_immutable?: boolean;
}

export interface LibraryAssetCreated extends LibraryAsset {
  created_new: boolean;
}

export interface LibraryAssetUpdated {
  id: string;
  name?: string;
  asset_hash?: string;
  tags?: string[];
  mime_type?: string;
  user_metadata?: Record<string, unknown>;
  updated_at: string;
}

export interface LibraryAssetList {
  assets: LibraryAsset[];
  total: number;
  has_more: boolean;
}

export interface LibraryTagList {
  tags: Array<{ name: string; count: number }>;
  total: number;
  has_more: boolean;
}

export interface LibraryTagHistogram {
  tag_counts: Record<string, number>;
}

export interface LibraryTagsChanged {
  added?: string[];
  removed?: string[];
  already_present?: string[];
  not_present?: string[];
  total_tags: string[];
}

/** listAssets `sort` values. */
export const LIBRARY_SORTS = ['name', 'created_at', 'updated_at', 'size', 'last_access_time'] as const;
