// Tables for humans: aligned, borderless and fitted to the terminal on a TTY; tab-separated
// (one record a line, no header, no colour) when stdout is piped, so `cut -f` works.
import Table from 'cli-table3';
import type { IOStreams } from './io.js';
import { sanitizeLine } from './sanitize.js';

export type Cell = string | number | boolean | null | undefined;

const BORDERLESS = {
  top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
  bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
  left: '', 'left-mid': '', mid: '', 'mid-mid': '',
  right: '', 'right-mid': '', middle: '  ',
};

function cellText(cell: Cell): string {
  if (cell === null || cell === undefined) return '';
  return sanitizeLine(String(cell));
}

/**
 * Column widths that fit `total` columns: shrink the widest column first. The first column is the
 * row's key (an id, a name) and is never cut: a truncated id cannot be copied into the next command.
 */
export function fitWidths(natural: number[], total: number, gap = 2): number[] {
  const widths = [...natural];
  const budget = Math.max(total - gap * (widths.length - 1), widths.length * 4);
  let sum = widths.reduce((a, b) => a + b, 0);
  while (sum > budget && widths.length > 1) {
    let widest = 1;
    for (let i = 2; i < widths.length; i++) if (widths[i]! > widths[widest]!) widest = i;
    if (widths[widest]! <= 4) break;
    widths[widest]!--;
    sum--;
  }
  return widths;
}

function truncate(text: string, width: number): string {
  return [...text].length <= width ? text : [...text].slice(0, Math.max(width - 1, 1)).join('') + '…';
}

/**
 * Renders for stdout (data: piped output has no header) or stderr (diagnostics such as node
 * errors: always headed, since only people read it).
 */
export function renderTable(io: IOStreams, headers: string[], rows: Cell[][], stream: 'stdout' | 'stderr' = 'stdout'): string {
  const texts = rows.map((r) => headers.map((_, i) => cellText(r[i])));
  const tty = stream === 'stdout' ? io.stdoutIsTTY : io.stderrIsTTY;
  const style = stream === 'stdout' ? io.out : io.errStyle;
  if (!tty) {
    const lines = texts.map((r) => r.join('\t'));
    if (stream === 'stderr') lines.unshift(headers.map((h) => h.toUpperCase()).join('\t'));
    return lines.join('\n');
  }
  const natural = headers.map((h, i) => Math.max(h.length, ...texts.map((r) => [...r[i]!].length)));
  const widths = fitWidths(natural, io.columns);
  const table = new Table({
    head: headers.map((h, i) => style.bold(truncate(h.toUpperCase(), widths[i]!))),
    chars: BORDERLESS,
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
  });
  for (const r of texts) table.push(r.map((c, i) => truncate(c, widths[i]!)));
  return table.toString().split('\n').map((l) => l.trimEnd()).join('\n');
}

export function printTable(io: IOStreams, headers: string[], rows: Cell[][]): void {
  if (rows.length === 0) return;
  io.println(renderTable(io, headers, rows));
}

/** Key/value lines ("status  succeeded") for a single object. */
export function renderFields(io: IOStreams, fields: Array<[string, Cell]>): string {
  const shown = fields.filter(([, v]) => v !== undefined && v !== null && v !== '');
  const width = Math.max(0, ...shown.map(([k]) => k.length));
  return shown.map(([k, v]) => `${io.out.bold(cellText(k).padEnd(width))}  ${cellText(v)}`).join('\n');
}
