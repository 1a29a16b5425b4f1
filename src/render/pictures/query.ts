// Asks the terminal what it can draw, with a short deadline: a kitty graphics query (a 1x1
// image with a=q, answered `ESC _ G i=31;OK ESC \` by terminals that speak kitty's protocol),
// the cell size in pixels (CSI 16 t), the sixel colour registers (XTSMGRAPHICS) and last
// Primary Device Attributes (CSI c), which every terminal answers, so its answer ends the wait.
// Attribute 4 in that answer means sixel.
import type { PictureProtocol } from './detect.js';

export const QUERY =
  '\x1b_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\x1b\\' + // kitty
  '\x1b[16t' + // cell size
  '\x1b[?1;1;0S' + // sixel colour registers
  '\x1b[c'; // DA1

export interface TerminalAnswer {
  protocol: PictureProtocol | null;
  /** Cell size in pixels when the terminal told it. */
  cell?: { width: number; height: number };
  colorRegisters?: number;
  /** Whether the DA1 answer (the end of all answers) has arrived. */
  complete: boolean;
}

const DA1 = /\x1b\[\?([\d;]*)c/;
const KITTY_OK = /\x1b_Gi=31;OK\x1b\\/;
const CELL = /\x1b\[6;(\d+);(\d+)t/;
const REGISTERS = /\x1b\[\?1;0;(\d+)S/;

/** Reads the answers collected so far. */
export function parseAnswer(text: string): TerminalAnswer {
  const da1 = DA1.exec(text);
  const cellMatch = CELL.exec(text);
  const registers = REGISTERS.exec(text);
  const sixel = da1 ? da1[1]!.split(';').includes('4') : false;
  const answer: TerminalAnswer = { protocol: KITTY_OK.test(text) ? 'kitty' : sixel ? 'sixel' : null, complete: da1 !== null };
  if (cellMatch) {
    const height = Number(cellMatch[1]);
    const width = Number(cellMatch[2]);
    if (width > 0 && height > 0 && width < 1000 && height < 1000) answer.cell = { width, height };
  }
  if (registers && Number(registers[1]) > 0) answer.colorRegisters = Number(registers[1]);
  return answer;
}

export interface QueryStreams {
  input: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown; isRaw?: boolean };
  output: NodeJS.WritableStream;
}

/** Sends the query and reads answers until DA1 arrives or `timeoutMs` passes. */
export function queryTerminal(streams: QueryStreams, timeoutMs: number): Promise<TerminalAnswer> {
  const { input, output } = streams;
  return new Promise((resolve) => {
    let text = '';
    const wasRaw = input.isRaw === true;
    const finish = (): void => {
      clearTimeout(timer);
      input.removeListener('data', onData);
      if (!wasRaw) input.setRawMode?.(false);
      input.pause();
      resolve(parseAnswer(text));
    };
    const onData = (chunk: Buffer | string): void => {
      text += chunk.toString();
      if (DA1.test(text)) finish();
    };
    const timer = setTimeout(finish, timeoutMs);
    input.setRawMode?.(true);
    input.on('data', onData);
    input.resume();
    output.write(QUERY);
  });
}
