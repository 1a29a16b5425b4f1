// Media-type helpers shared by uploads, from-hash records and engine outputs.
import type { StoredOutput } from '../contract.js';

export { guessMediaType } from '../../files/media-type.js';

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
