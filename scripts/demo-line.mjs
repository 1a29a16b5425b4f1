// The command line the demo shows before each step, quoted as a shell needs it: a reader who
// pastes `$ wes models run dev/echo -d '{"prompt":…}'` into a terminal runs what the demo ran.
// (Plain JS: the demo runs from dist/, which does not export src/util/shell-word.ts.)

/** POSIX single quotes around a word unless it is plainly safe. */
export function quoted(word) {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export function commandLine(args) {
  return ['$ wes', ...args.map(quoted)].join(' ');
}
