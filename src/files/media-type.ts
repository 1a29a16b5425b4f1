// A file's media type from its extension: the client labels uploads with it and the dev-server
// falls back to it, so both agree.
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

export function guessMediaType(filePath: string): string {
  const ext = /\.([a-z0-9]+)$/i.exec(filePath)?.[1]?.toLowerCase();
  return (ext && BY_EXTENSION[ext]) || 'application/octet-stream';
}
