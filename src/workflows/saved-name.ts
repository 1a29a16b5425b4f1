// Names of workflows saved on the server (the editor's `workflows/` folder of user data). A name is
// relative to that folder, `/` between subfolders, and never a path out of it: `..`, `.`, empty
// segments, a leading `/`, backslashes and control characters are refused before any request.
// ComfyUI decodes a name a second time whenever it still holds a `%` (recorded on 0.3.18 and
// 0.3.64: `50%41` was saved as `50A`), so a `%` before two hex digits is refused too: the file
// would land under another name. The editor names every file `<name>.json`; wes adds `.json` when
// the name lacks it.
import { UsageError } from '../errors.js';

export const WORKFLOWS_DIR = 'workflows';
/** What file systems take as one name, in bytes (0.3.64 refuses longer with a 400, 0.3.18 fails with a 500). */
const MAX_SEGMENT_BYTES = 255;

export interface SavedName {
  /** As listed and shown: relative to `workflows/`, with `.json`. */
  name: string;
  /** Relative to the user folder: `workflows/<name>`, what the user-data routes take. */
  path: string;
}

function problemOf(name: string): string | undefined {
  if (name === '') return 'it is empty';
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name)) return 'it holds a control character';
  if (name.includes('\\')) return 'it holds a backslash (use / between folders)';
  if (/%[0-9a-fA-F]{2}/.test(name)) return 'it holds % followed by two hex digits, which ComfyUI decodes again (the file would be saved under another name)';
  for (const segment of name.split('/')) {
    if (segment === '') return 'it has an empty folder name (a leading, trailing or doubled /)';
    if (segment === '.' || segment === '..') return `"${segment}" would leave the workflows folder or name the folder itself`;
    if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES) return `a part of it is over ${MAX_SEGMENT_BYTES} bytes`;
  }
  return undefined;
}

/** The saved workflow `name` names; a usage error (exit 2) naming the problem otherwise. */
export function savedName(name: string, what = 'name'): SavedName {
  const full = /\.json$/i.test(name) ? name : `${name}.json`;
  const problem = problemOf(name) ?? problemOf(full);
  if (problem) throw new UsageError(`${JSON.stringify(name)} is not a usable workflow ${what}: ${problem}`, 'name it as `wes workflows list --remote` shows it, e.g. "my flow.json" or "portraits/v2.json"');
  return { name: full, path: `${WORKFLOWS_DIR}/${full}` };
}

/** A listed name as the server sent it, or undefined when wes could not ask for it back by that name. */
export function listedName(name: string): SavedName | undefined {
  try {
    return /\.json$/i.test(name) ? savedName(name) : undefined;
  } catch {
    return undefined;
  }
}

/** The file a pulled workflow is written to by default: its last part, in the current folder. */
export function localFileName(saved: SavedName): string {
  return saved.name.slice(saved.name.lastIndexOf('/') + 1);
}
