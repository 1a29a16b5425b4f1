// The saved-workflow use cases that take more than one request. A name is looked up in the listing
// before any request names it: ComfyUI creates the parent folder of any file path it is asked
// about (a GET or DELETE of `workflows/typo/x.json` leaves an empty `typo` folder behind), so wes
// never names a file the listing does not show. The published cloud API has no move route: there
// a move is a copy (refused when the destination exists, unless overwriting) and a delete.
import { ExitCode, WesError } from '../../errors.js';
import { sanitizeLine } from '../../util/sanitize.js';
import type { SavedWorkflowEntry, SavedWorkflowsClient } from '../../clients/legacy/saved-workflows.js';
import type { SavedName } from '../../workflows/saved-name.js';

export function notSaved(saved: SavedName, entries: SavedWorkflowEntry[]): WesError {
  const wanted = saved.name.toLowerCase();
  const close = entries.filter((e) => e.name.toLowerCase() === wanted || e.name.toLowerCase().includes(wanted.replace(/\.json$/, ''))).slice(0, 3);
  const hint = close.length > 0
    ? `did you mean ${close.map((e) => JSON.stringify(sanitizeLine(e.name))).join(', ')}? (names are case-sensitive)`
    : 'see the saved workflows with: wes workflows list --remote';
  return new WesError(sanitizeLine(`no saved workflow ${JSON.stringify(saved.name)} on the server`), { exitCode: ExitCode.NOT_FOUND, code: 'not_found', hint, origin: 'legacy' });
}

/** The listed entry of `saved`; a not-found error (exit 5) naming close names otherwise. */
export async function findSaved(client: SavedWorkflowsClient, saved: SavedName): Promise<SavedWorkflowEntry> {
  const entries = await client.list();
  const entry = entries.find((e) => e.name === saved.name);
  if (!entry) throw notSaved(saved, entries);
  return entry;
}

/** The bytes of a saved workflow, exactly as saved. */
export async function readSaved(client: SavedWorkflowsClient, saved: SavedName): Promise<Buffer> {
  await findSaved(client, saved);
  const bytes = await client.read(saved.path);
  if (bytes === null) throw notSaved(saved, []);
  return bytes;
}

export function alreadySaved(saved: SavedName, fix: string): WesError {
  return new WesError(sanitizeLine(`a saved workflow ${JSON.stringify(saved.name)} already exists; it was left as it is`), { exitCode: ExitCode.REFUSED, code: 'already_exists', hint: fix, origin: 'legacy' });
}

/** Moves `from` to `to` by the engine's route, or on the cloud by copy and delete. */
export async function moveSaved(client: SavedWorkflowsClient, from: SavedName, to: SavedName, overwrite: boolean, engine: boolean): Promise<'moved' | 'exists'> {
  await findSaved(client, from);
  if (engine) {
    const outcome = await client.move(from.path, to.path, overwrite);
    if (outcome === 'missing') throw notSaved(from, []);
    return outcome;
  }
  const bytes = await client.read(from.path);
  if (bytes === null) throw notSaved(from, []);
  if ((await client.write(to.path, bytes, overwrite)) === 'exists') return 'exists';
  await client.remove(from.path);
  return 'moved';
}
