// Text from the server or the user quoted in a message is cut to a readable length: one 120 KB
// value once filled the terminal four times over in a single error.

/** Longest quoted text in a message or hint. */
export const MESSAGE_LIMIT = 1000;
/** Longest text in one table cell. */
export const CELL_LIMIT = 200;

/** `text` as is when short enough, else its start and a note of how much was left out. */
export function bounded(text: string, limit = MESSAGE_LIMIT): string {
  if (text.length <= limit) return text;
  // Cut on a code point, never inside a surrogate pair.
  const kept = Array.from(text.slice(0, limit + 1)).slice(0, -1).join('');
  return `${kept}… (${text.length - kept.length} more characters not shown)`;
}
