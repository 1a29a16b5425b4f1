// What a search for a single-use send's work, by its key, can find: the thing itself, a list read
// that does not hold it (and whether that read proves nothing was made), or no list to read. One
// shape for every family, so the keyed send's verdict (src/features/keyed) judges each alike.

export type KeySearch<T> =
  | { kind: 'found'; value: T }
  /** The list was read and holds nothing with the key; `proven`: the list covers the time the key was sent. */
  | { kind: 'absent'; proven: boolean; searched: number }
  /** The server offers no list to search (404, 405, 501), or reading it failed: `reason` says which. */
  | { kind: 'no-list'; reason: string };

/** A search that found nothing. */
export type SearchMiss = Exclude<KeySearch<never>, { kind: 'found' }>;
