// Walking the whole catalog: keep going while has_more is true (short and empty pages are not the
// end), pass each cursor back exactly, and when a cursor is refused mid-walk (the catalog was
// rebuilt) start over once, keeping every id seen so far only once.
import { ApiError, ExitCode, WesError } from '../../errors.js';
import type { ModelsClient } from './client.js';
import type { RouterModelListEntry } from '../../protocol/models.js';

export interface WalkOptions {
  limit?: number;
  /** Told when the walk starts over after a refused cursor. */
  onRestart?: (reason: string) => void;
  onPage?: (pages: number, entries: number) => void;
}

const MAX_RESTARTS = 1;

/**
 * The next page is asked for as soon as this one's cursor is known, and this page's entries are
 * checked while the router works on it: the cursors are sequential, the checks need not be.
 */
export async function walkCatalog(client: ModelsClient, options: WalkOptions = {}): Promise<RouterModelListEntry[]> {
  const seen = new Map<string, RouterModelListEntry>();
  let restarts = 0;
  let pages = 0;
  const usedCursors = new Set<string>();
  const ask = (cursor: string | undefined) => {
    const answer = client.listPageThenEntries({ limit: options.limit, cursor });
    answer.catch(() => undefined); // awaited below; a walk that stops first must not leave it unhandled
    return { cursor, answer };
  };
  let pending = ask(undefined);
  for (;;) {
    let page, checkEntries;
    try {
      ({ page, checkEntries } = await pending.answer);
    } catch (err) {
      if (pending.cursor !== undefined && err instanceof ApiError && err.code === 'invalid_input' && restarts < MAX_RESTARTS) {
        restarts++;
        options.onRestart?.(err.message);
        usedCursors.clear();
        pending = ask(undefined);
        continue;
      }
      throw err;
    }
    pages++;
    if (page.has_more) {
      const next = page.next_cursor!;
      if (usedCursors.has(next)) {
        throw new WesError('the router handed out the same cursor twice; the catalog walk would never end', { exitCode: ExitCode.ERROR, code: 'bad_response', origin: 'models' });
      }
      usedCursors.add(next);
      pending = ask(next);
    }
    checkEntries();
    for (const entry of page.data) if (!seen.has(entry.id)) seen.set(entry.id, entry);
    options.onPage?.(pages, seen.size);
    if (!page.has_more) return [...seen.values()];
  }
}
