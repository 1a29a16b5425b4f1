// Tables for humans: aligned, borderless and fitted to the terminal on a TTY; tab-separated
// (one record a line, no header, no colour) when stdout is piped, so `cut -f` works.
import Table from 'cli-table3';
import type { IOStreams } from './io.js';
import { sanitizeLine } from '../util/sanitize.js';

export type Cell = string | number | boolean | null | undefined;

/** How a table gives way on a narrow terminal (column indexes). */
export interface TableLayout {
  /** Never shortened (ids, which people copy). */
  keep?: number[];
  /** Left out, in this order, while the table is too wide (columns that repeat another, e.g. parts of an id). */
  drop?: number[];
  /** Wrapped onto more lines instead of cut (descriptions). */
  wrap?: number[];
}

const BORDERLESS = {
  top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
  bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
  left: '', 'left-mid': '', mid: '', 'mid-mid': '',
  right: '', 'right-mid': '', middle: '  ',
};
const GAP = 2;
const MIN_WIDTH = 4;

function cellText(cell: Cell): string {
  if (cell === null || cell === undefined) return '';
  return sanitizeLine(String(cell));
}

function width(text: string): number {
  return [...text].length;
}

/**
 * Column widths that fit `total` columns: shrink the widest column that may shrink first. The
 * first column is the row's key (an id, a name) and is never cut by default: a truncated id cannot
 * be copied into the next command.
 */
export function fitWidths(natural: number[], total: number, gap = GAP, keep: ReadonlySet<number> = new Set([0])): number[] {
  const widths = [...natural];
  const budget = Math.max(total - gap * (widths.length - 1), widths.length * MIN_WIDTH);
  let sum = widths.reduce((a, b) => a + b, 0);
  while (sum > budget) {
    let widest = -1;
    for (let i = 0; i < widths.length; i++) if (!keep.has(i) && (widest < 0 || widths[i]! > widths[widest]!)) widest = i;
    if (widest < 0 || widths[widest]! <= MIN_WIDTH) break;
    widths[widest]!--;
    sum--;
  }
  return widths;
}

function truncate(text: string, max: number): string {
  return width(text) <= max ? text : [...text].slice(0, Math.max(max - 1, 1)).join('') + '…';
}

/**
 * Breaks text into lines of at most `max` characters, at spaces where it can, else after a comma
 * (a list such as `["euler","heun",…]`), else anywhere.
 */
export function wrapText(text: string, max: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    let rest = word;
    while (width(rest) > max) {
      if (line) {
        lines.push(line);
        line = '';
      }
      const chars = [...rest];
      const comma = chars.slice(0, max).lastIndexOf(',');
      const cut = comma > 0 ? comma + 1 : max;
      lines.push(chars.slice(0, cut).join(''));
      rest = chars.slice(cut).join('');
    }
    if (!line) line = rest;
    else if (width(line) + 1 + width(rest) <= max) line += ' ' + rest;
    else {
      lines.push(line);
      line = rest;
    }
  }
  lines.push(line);
  return lines.join('\n');
}

/** The columns shown on a terminal `total` wide: droppable ones go, in order, until the rest fits. */
function visibleColumns(natural: number[], total: number, layout: TableLayout): number[] {
  let shown = natural.map((_, i) => i);
  const fits = () => shown.reduce((a, i) => a + natural[i]!, 0) + GAP * (shown.length - 1) <= total;
  for (const d of layout.drop ?? []) {
    if (fits()) break;
    shown = shown.filter((i) => i !== d);
  }
  return shown;
}

/**
 * Renders for stdout (data: piped output has no header) or stderr (diagnostics such as node
 * errors: always headed, since only people read it, and wrapped rather than cut: the part cut
 * off is often the fix, such as the allowed values).
 */
export function renderTable(io: IOStreams, headers: string[], rows: Cell[][], stream: 'stdout' | 'stderr' = 'stdout', layout: TableLayout = {}): string {
  const texts = rows.map((r) => headers.map((_, i) => cellText(r[i])));
  const tty = stream === 'stdout' ? io.stdoutIsTTY : io.stderrIsTTY;
  const style = stream === 'stdout' ? io.outStyle : io.errStyle;
  if (!tty) {
    const lines = texts.map((r) => r.join('\t'));
    if (stream === 'stderr') lines.unshift(headers.map((h) => h.toUpperCase()).join('\t'));
    return lines.join('\n');
  }
  const natural = headers.map((h, i) => Math.max(width(h), ...texts.map((r) => width(r[i]!))));
  const shown = visibleColumns(natural, io.columns, layout);
  const keep = new Set([0, ...shown.flatMap((col, at) => ((layout.keep ?? []).includes(col) ? [at] : []))]);
  const widths = fitWidths(shown.map((i) => natural[i]!), io.columns, GAP, keep);
  const wrap = new Set(layout.wrap ?? (stream === 'stderr' ? shown : []));
  const fit = (text: string, at: number) => (wrap.has(shown[at]!) ? wrapText(text, widths[at]!) : truncate(text, widths[at]!));
  const table = new Table({
    head: shown.map((i, at) => style.bold(truncate(headers[i]!.toUpperCase(), widths[at]!))),
    chars: BORDERLESS,
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
  });
  for (const r of texts) table.push(shown.map((i, at) => fit(r[i]!, at)));
  return table.toString().split('\n').map((l) => l.trimEnd()).join('\n');
}

export function printTable(io: IOStreams, headers: string[], rows: Cell[][], layout: TableLayout = {}): void {
  if (rows.length === 0) return;
  io.println(renderTable(io, headers, rows, 'stdout', layout));
}

/** Key/value lines ("status  succeeded") for a single object; `key<TAB>value` when piped. */
export function renderFields(io: IOStreams, fields: Array<[string, Cell]>): string {
  const shown = fields.filter(([, v]) => v !== undefined && v !== null && v !== '');
  if (!io.stdoutIsTTY) return shown.map(([k, v]) => `${cellText(k)}\t${cellText(v)}`).join('\n');
  const keyWidth = Math.max(0, ...shown.map(([k]) => k.length));
  return shown.map(([k, v]) => `${io.outStyle.bold(cellText(k).padEnd(keyWidth))}  ${cellText(v)}`).join('\n');
}

/** A record on stdout: the service's object unchanged with --json, else its fields (`fields` is read only then). */
export function printRecord(io: IOStreams, value: unknown, fields: () => Array<[string, Cell]>): void {
  if (io.json) io.printJson(value);
  else io.println(renderFields(io, fields()));
}
