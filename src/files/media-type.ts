// A file's media type from its extension, the client's one table: asset uploads are labelled with
// it, and a file given to a model (`-i key=@file`) becomes a data URI of this type when the schema
// does not declare one. (The dev-server, an independent implementation, keeps its own.)
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
  ogg: 'audio/ogg',
  txt: 'text/plain',
  json: 'application/json',
  pdf: 'application/pdf',
  safetensors: 'application/octet-stream',
  latent: 'application/octet-stream',
};

export function guessMediaType(filePath: string): string {
  const ext = /\.([a-z0-9]+)$/i.exec(filePath)?.[1]?.toLowerCase();
  return (ext && BY_EXTENSION[ext]) || 'application/octet-stream';
}

/** The usual extension of a media type (`audio/wav` -> `wav`), or undefined for one the table lacks. */
export function extensionFor(mediaType: string | undefined): string | undefined {
  const type = mediaType?.split(';')[0]?.trim().toLowerCase();
  if (!type || type === 'application/octet-stream') return undefined;
  if (type === 'audio/x-wav' || type === 'audio/wave') return 'wav';
  if (type === 'audio/mp3') return 'mp3';
  return Object.keys(BY_EXTENSION).find((ext) => BY_EXTENSION[ext] === type);
}
