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

function cellText(cell: Cell): string {
  if (cell === null || cell === undefined) return '';
  return sanitizeLine(String(cell));
}

function width(text: string): number {
  return [...text].length;
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

/** Narrower than this a column is no longer read as a column: the rows are stacked instead. */
const READABLE = 6;

/**
 * The columns shown and their widths, never wider than `total` (a line the terminal wraps breaks
 * words and columns apart): droppable columns go first, then the rightmost column gives way, then
 * the one before it, none below READABLE characters (`flow.…`) and never a kept one. Undefined where that is
 * not enough: the rows are then stacked, one `HEADER value` line a cell (stackedRows).
 */
export function fitTable(natural: number[], total: number, layout: TableLayout = {}): { shown: number[]; widths: number[] } | undefined {
  const shown = visibleColumns(natural, total, layout);
  const keep = new Set([0, ...shown.flatMap((col, at) => ((layout.keep ?? []).includes(col) ? [at] : []))]);
  const widths = shown.map((i) => natural[i]!);
  let over = widths.reduce((a, b) => a + b, 0) + GAP * (widths.length - 1) - total;
  for (let at = widths.length - 1; at >= 0 && over > 0; at--) {
    if (keep.has(at)) continue;
    const cut = Math.min(over, widths[at]! - Math.min(widths[at]!, READABLE));
    widths[at]! -= cut;
    over -= cut;
  }
  return over > 0 ? undefined : { shown, widths };
}

/** Each row as lines of `HEADER  value`, values wrapped at words to the width left; a blank line between rows. */
function stackedRows(headers: string[], rows: string[][], total: number, bold: (s: string) => string): string {
  const keyWidth = Math.max(...headers.map((h) => width(h)));
  const room = Math.max(total - keyWidth - GAP, READABLE);
  const pad = ' '.repeat(keyWidth + GAP);
  return rows
    .map((r) =>
      headers
        .map((h, i) => [h, r[i]!] as const)
        .filter(([, v]) => v !== '')
        .map(([h, v]) => `${bold(h.toUpperCase().padEnd(keyWidth))}${' '.repeat(GAP)}${wrapText(v, room).split('\n').join(`\n${pad}`)}`)
        .join('\n'),
    )
    .join('\n\n');
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
  const fitted = fitTable(natural, io.columns, layout);
  if (!fitted) return stackedRows(headers, texts, io.columns, (h) => style.bold(h));
  const { shown, widths } = fitted;
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
