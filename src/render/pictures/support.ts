// Whether pictures can be drawn for this command, and if not, why (said once on stderr). Never
// when stdout is not a terminal or with --json/--jq; previews also need a live stderr (no
// --quiet). The terminal is asked at most once per process.
import type { IOStreams } from '../io.js';
import { protocolFromEnv } from './detect.js';
import type { PictureTerminal } from './picture.js';
import { queryTerminal, type TerminalAnswer } from './query.js';

export type PictureSupport = { terminal: PictureTerminal } | { reason: string };

const QUERY_TIMEOUT_MS = 300;
/** A common cell size when the terminal does not tell its own. */
const GUESSED_CELL = { width: 10, height: 20 };

const asked = new WeakMap<IOStreams, Promise<TerminalAnswer | null>>();

export async function pictureSupport(io: IOStreams, use: 'show' | 'preview'): Promise<PictureSupport> {
  if (io.json) return { reason: 'no pictures with --json or --jq' };
  if (!io.stdoutIsTTY) return { reason: 'no pictures: stdout is not a terminal' };
  if (use === 'preview' && !io.canAnimate) return { reason: `no preview pictures: ${io.quiet ? '--quiet is given' : 'stderr is not a live terminal'}` };
  const verdict = protocolFromEnv(io.env);
  if ('none' in verdict) return { reason: `no pictures: ${verdict.none}` };
  const answer = await ask(io);
  const columns = io.columns;
  if ('protocol' in verdict) return { terminal: { protocol: verdict.protocol, cell: answer?.cell ?? GUESSED_CELL, colorRegisters: answer?.colorRegisters, columns } };
  if (!answer) return { reason: `no pictures: ${verdict.ask}, and the terminal cannot be asked (stdin is not a terminal); set WES_PICTURES=kitty, iterm or sixel` };
  if (!answer.complete) return { reason: `no pictures: ${verdict.ask}, and the terminal did not answer within ${QUERY_TIMEOUT_MS} ms; set WES_PICTURES=kitty, iterm or sixel` };
  if (!answer.protocol) return { reason: 'no pictures: the terminal reports neither kitty graphics nor sixel (for xterm: xterm -ti vt340)' };
  return { terminal: { protocol: answer.protocol, cell: answer.cell ?? GUESSED_CELL, colorRegisters: answer.colorRegisters, columns } };
}

/** The terminal's answers; null when it cannot be asked (stdin is not the terminal). */
function ask(io: IOStreams): Promise<TerminalAnswer | null> {
  let answer = asked.get(io);
  if (!answer) {
    const input = io.stdin as NodeJS.ReadStream;
    answer = io.stdinIsTTY && typeof input.setRawMode === 'function' ? queryTerminal({ input, output: io.stdout }, QUERY_TIMEOUT_MS) : Promise.resolve(null);
    asked.set(io, answer);
  }
  return answer;
}
