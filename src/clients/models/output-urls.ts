// Finding the files a model output links to, and saving them: every http(s) URL in any string
// of the output, fetched with no credentials (they are signed or public), taken as chunks into NAME.part
// and renamed when complete, under safe and unique names.
import type { HttpClient } from '../../http/client.js';
import { UniqueNames } from '../../files/safe-name.js';
import { saveToFile, type FileChoices, type SavedFile } from '../../files/save.js';
import { makeFolders } from '../../files/safe-file.js';
import { isObject } from '../../protocol/openapi-document.js';

const URL_IN_TEXT = /https?:\/\/[^\s"'<>\\^`{|}]+/gi;

export function outputUrls(value: unknown): URL[] {
  const found = new Map<string, URL>();
  const visit = (node: unknown) => {
    if (typeof node === 'string') {
      for (const match of node.match(URL_IN_TEXT) ?? []) {
        try {
          const url = new URL(match);
          found.set(url.href, url);
        } catch {
          // not a URL after all
        }
      }
    } else if (Array.isArray(node)) node.forEach(visit);
    else if (isObject(node)) Object.values(node).forEach(visit);
  };
  visit(value);
  return [...found.values()];
}

function nameOf(url: URL): string {
  const last = url.pathname.split('/').filter(Boolean).pop() ?? '';
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

export async function downloadUrls(
  http: HttpClient,
  urls: URL[],
  dir: string,
  onSaved?: (file: SavedFile, url: URL) => void,
  choices: FileChoices = {},
): Promise<SavedFile[]> {
  await makeFolders(dir);
  const names = new UniqueNames();
  const saved: SavedFile[] = [];
  for (const url of urls) {
    const file = await saveToFile({
      dir,
      name: names.reserve(nameOf(url), 'download'),
      open: async (offset) => {
        const res = await http.signedChunks(url, offset > 0 ? { range: `bytes=${offset}-` } : {});
        return { status: res.status, body: res.body };
      },
      ...choices,
    });
    saved.push(file);
    onSaved?.(file, url);
  }
  return saved;
}
