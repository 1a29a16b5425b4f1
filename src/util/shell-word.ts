// Commands wes suggests ("resume with: ...") are pasted into a shell: each word is quoted unless
// it is plainly safe.

/** Shell-quotes one word (POSIX single quotes) unless it is plainly safe. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
