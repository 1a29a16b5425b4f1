// The text styles wes prints with (chalk's names), one set per stream: chalk's when the stream
// gets colour, plain functions when it does not. chalk loads only for a stream that gets colour:
// its terminal detection (node:tty, node:os) and style tables cost every start ~1-2.5 ms, and a
// command whose output goes to a pipe or a file never uses them (bench/RESULTS.md, issue 16).

export interface TextStyles {
  /** 0: no colour; 1: the 16 basic colours, all wes uses (chalk's level). */
  readonly level: 0 | 1;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  bold(text: string): string;
  dim(text: string): string;
}

const unchanged = (text: string): string => text;

/** No colour: every style returns its text as it is (as chalk does at level 0). */
export const PLAIN_STYLES: TextStyles = Object.freeze({ level: 0, red: unchanged, green: unchanged, yellow: unchanged, bold: unchanged, dim: unchanged });

let Chalk: typeof import('chalk').Chalk | undefined;

/** Loads chalk when some stream gets colour; stylesFor(true) needs it loaded. */
export async function loadStyles(colour: boolean): Promise<void> {
  if (colour) Chalk ??= (await import('chalk')).Chalk;
}

/** The styles of a stream that gets colour (`colour`) or not. */
export function stylesFor(colour: boolean): TextStyles {
  if (!colour) return PLAIN_STYLES;
  if (!Chalk) throw new Error('colour styles asked for before chalk was loaded: build IOStreams with IOStreams.open()');
  return new Chalk({ level: 1 }) as TextStyles;
}
