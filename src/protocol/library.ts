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

/** getRemoteAssetMetadata's answer (AssetMetadataResponse): a remote file described before it is fetched. */
export interface LibraryRemoteMetadata {
  /** Bytes; -1 when the source does not say. */
  content_length: number;
  content_type?: string;
  filename?: string;
  name?: string;
  tags?: string[];
  /** A `data:` URL. */
  preview_image?: string;
  validation?: LibraryValidation;
}

/** ValidationResult: errors block the download; warnings are for information. */
export interface LibraryValidation {
  is_valid: boolean;
  errors?: LibraryValidationProblem[];
  warnings?: LibraryValidationProblem[];
}

export interface LibraryValidationProblem {
  code: string;
  message: string;
  field: string;
}

/** createAssetDownload's 202 (AssetDownloadResponse): a background download under way. */
export interface LibraryDownloadStarted {
  task_id: string;
  status: LibraryTaskStatus;
  message?: string;
}

/** AssetDownloadResponse.status: a download task's states. */
export const LIBRARY_TASK_STATUSES = ['created', 'running', 'completed', 'failed'] as const;
export type LibraryTaskStatus = (typeof LIBRARY_TASK_STATUSES)[number];

/** createAssetDownload: "must be from huggingface.co or civitai.com" (a subdomain of either too). */
export const LIBRARY_DOWNLOAD_HOSTS = ['huggingface.co', 'civitai.com'] as const;

export function isLibraryDownloadHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return LIBRARY_DOWNLOAD_HOSTS.some((h) => host === h || host.endsWith(`.${h}`));
}

/**
 * GET /api/tasks/{task_id}: openapi-cloud.yaml names this route as the way to follow a download
 * (createAssetDownload, AssetDownloadResponse.task_id) and publishes the status values, but gives
 * it no path entry and no answer schema. The fields below are those the maker's own web client
 * reads from it (Comfy-Org/ComfyUI_frontend, the task service); only `id` and `status` are relied on.
 */
export interface LibraryTask {
  id: string;
  status: LibraryTaskStatus;
  task_name?: string;
  payload?: Record<string, unknown>;
  result?: LibraryTaskResult;
  error_message?: string;
  create_time?: string;
  update_time?: string;
  started_at?: string;
  completed_at?: string;
}

/** A finished download task's result. */
export interface LibraryTaskResult {
  success: boolean;
  asset_id?: string;
  filename?: string;
  bytes_downloaded?: number;
  content_type?: string;
  hash?: string;
  error?: string;
}
