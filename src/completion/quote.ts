// Quoting for generated shell code: every string from the command tree (descriptions, choices)
// goes into a script, so none may end a quote or start a command.

/** POSIX single quotes (bash, zsh): ' becomes '\''. */
export function shQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** fish single quotes: only \ and ' are special inside them. */
export function fishQuote(text: string): string {
  return `'${text.replace(/[\\']/g, (c) => `\\${c}`)}'`;
}

/** One line of description text without control characters or tabs (menus are one line). */
export function menuText(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
}
