// The reference self-hosted server writes every time with Python's `datetime.isoformat()` of an
// aware UTC datetime: microseconds and `+00:00` (`2026-11-28T13:26:08.395108+00:00`), and no
// fraction at all when the microseconds are 0 (`2026-11-28T13:26:08+00:00`). This server keeps
// milliseconds, so the last three digits are 0; a client reading them must take every form.

/** Python's `isoformat()` of the UTC moment `ms` (milliseconds since the epoch). */
export function pythonIsoformat(ms: number): string {
  const iso = new Date(ms).toISOString(); // YYYY-MM-DDTHH:MM:SS.mmmZ
  const seconds = iso.slice(0, 19);
  const millis = iso.slice(20, 23);
  return millis === '000' ? `${seconds}+00:00` : `${seconds}.${millis}000+00:00`;
}

/** An ISO time this server stored, rewritten as the reference server writes it; null stays null. */
export function pythonTime(iso: string | null): string | null {
  return iso === null ? null : pythonIsoformat(Date.parse(iso));
}
