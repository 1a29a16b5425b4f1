// Media-type helpers shared by uploads, from-hash records and engine outputs.
import type { StoredOutput } from '../contract.js';

/** The types the dev-server gives a stored file whose uploader named none, by file extension. */
const EXTENSIONS_OF: Record<string, readonly string[]> = {
  'image/png': ['png'],
  'image/jpeg': ['jpg', 'jpeg'],
  'image/webp': ['webp'],
  'image/gif': ['gif'],
  'video/mp4': ['mp4'],
  'video/webm': ['webm'],
  'audio/wav': ['wav'],
  'audio/mpeg': ['mp3'],
  'audio/flac': ['flac'],
  'text/plain': ['txt'],
  'application/json': ['json'],
};
const TYPE_BY_EXTENSION = new Map(Object.entries(EXTENSIONS_OF).flatMap(([type, exts]) => exts.map((ext) => [ext, type] as const)));

export function guessMediaType(filePath: string): string {
  const dot = filePath.lastIndexOf('.');
  const ext = dot < 0 ? '' : filePath.slice(dot + 1).toLowerCase();
  return TYPE_BY_EXTENSION.get(ext) ?? 'application/octet-stream';
}

export const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*(\s*;.*)?$/i;

/** The normalized output kind of a media type. */
export function outputKind(contentType: string, name = ''): StoredOutput['type'] {
  const type = contentType.toLowerCase();
  if (name.endsWith('.latent')) return 'latent';
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('video/')) return 'video';
  if (type.startsWith('audio/')) return 'audio';
  if (type.startsWith('text/')) return 'text';
  return 'file';
}
