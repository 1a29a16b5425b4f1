// A remote file's URL as the library commands take it: HTTP or HTTPS only (the contract's `format:
// uri`, "HTTP/HTTPS URL"), refused before anything is sent; and the file name it ends in.
import { UsageError } from '../../errors.js';

export function remoteUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`not a URL: ${raw}`, 'give the file\'s full address, e.g. https://huggingface.co/ORG/REPO/resolve/main/model.safetensors');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`the cloud fetches only http and https URLs, not ${url.protocol.replace(/:$/, '')}: ${raw}`);
  return url;
}

/** The URL's last path segment, decoded (a display name when none is given); '' when it has none. */
export function urlFileName(url: URL): string {
  const last = url.pathname.split('/').pop() ?? '';
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}
