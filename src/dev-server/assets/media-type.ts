// Media-type helpers shared by uploads, from-hash records and engine outputs.
import type { StoredOutput } from '../contract.js';

const BY_EXTENSION: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  mp4: 'video/mp4',
  webm: 'video/webm',
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  flac: 'audio/flac',
  txt: 'text/plain',
  json: 'application/json',
  safetensors: 'application/octet-stream',
  latent: 'application/octet-stream',
};

export const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*(\s*;.*)?$/i;

export function guessMediaType(filePath: string): string {
  const ext = /\.([a-z0-9]+)$/i.exec(filePath)?.[1]?.toLowerCase();
  return (ext && BY_EXTENSION[ext]) || 'application/octet-stream';
}

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
