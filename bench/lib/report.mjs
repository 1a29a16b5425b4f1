// Result rows, the printed table and the JSON file. A row compares wes with a reference as a
// ratio (wes / reference) against a target that is a ceiling (times) or a floor (throughput).
import { writeFileSync } from 'node:fs';
import { formatValue } from './stats.mjs';

/**
 * Builds a row. wes and reference are { value, unit, label? }; target is { max } or { min } on the
 * ratio, or { report: true }, or { limit: { max, unit } } for an absolute figure with no reference.
 */
export function row(id, title, { wes, reference = null, target, note = '', details = {} }) {
  let ratio = null;
  if (reference && Number.isFinite(wes?.value) && Number.isFinite(reference.value) && reference.value > 0) ratio = wes.value / reference.value;
  let pass = null;
  if (target.max !== undefined && ratio !== null) pass = ratio <= target.max;
  if (target.min !== undefined && ratio !== null) pass = ratio >= target.min;
  if (target.limit && Number.isFinite(wes?.value)) pass = wes.value <= target.limit.max;
  for (const extra of target.also ?? []) {
    if (extra.pass === false) pass = false;
    else if (extra.pass === true && pass === null) pass = true;
  }
  return { id, title, status: 'ok', wes, reference, ratio, target: { ...target, text: targetText(target) }, pass, note, details };
}

export function unavailable(id, title, reason, target = {}) {
  return { id, title, status: 'not available', wes: null, reference: null, ratio: null, target: { ...target, text: targetText(target) }, pass: null, note: reason, details: {} };
}

export function failed(id, title, reason, target = {}) {
  return { id, title, status: 'error', wes: null, reference: null, ratio: null, target: { ...target, text: targetText(target) }, pass: null, note: reason, details: {} };
}

function targetText(target) {
  const parts = [];
  if (target.max !== undefined) parts.push(`≤ ${target.max}×`);
  if (target.min !== undefined) parts.push(`≥ ${target.min}×`);
  if (target.limit) parts.push(`≤ ${formatValue(target.limit.max, target.limit.unit)}`);
  for (const extra of target.also ?? []) parts.push(extra.text);
  if (target.report) parts.push('report');
  return parts.join('; ') || '–';
}

function verdict(r) {
  if (r.status === 'not available') return 'n/a';
  if (r.status === 'error') return 'error';
  if (r.pass === null) return 'report';
  return r.pass ? 'pass' : 'FAIL';
}

function cells(r) {
  const wes = r.wes ? formatValue(r.wes.value, r.wes.unit) : '–';
  const ref = r.reference ? `${formatValue(r.reference.value, r.reference.unit)}${r.reference.label ? ` (${r.reference.label})` : ''}` : '–';
  const ratio = r.ratio !== null ? `${r.ratio.toFixed(2)}×` : '–';
  return [r.title, wes, ref, ratio, r.target.text, verdict(r)];
}

const HEADERS = ['case', 'wes (median)', 'reference (median)', 'ratio', 'target', 'result'];

export function printTable(rows, write = (line) => process.stdout.write(`${line}\n`)) {
  const table = [HEADERS, ...rows.map(cells)];
  const widths = HEADERS.map((_, i) => Math.max(...table.map((cols) => cols[i].length)));
  const line = (cols) => cols.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  write(line(HEADERS));
  write(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) write(line(cells(r)));
  const notes = rows.filter((r) => r.note);
  if (notes.length) {
    write('');
    for (const r of notes) write(`- ${r.title}: ${r.note}`);
  }
}

/** The same table in Markdown, for bench/RESULTS.md. */
export function markdownTable(rows) {
  const esc = (s) => s.replace(/\|/g, '\\|');
  const lines = [`| ${HEADERS.join(' | ')} |`, `|${HEADERS.map(() => '---').join('|')}|`];
  for (const r of rows) lines.push(`| ${cells(r).map(esc).join(' | ')} |`);
  return lines.join('\n');
}

/** For --check: the rows that missed their target, and those with a target that could not be measured (missing tool, error). */
export function checkRows(rows) {
  return {
    missed: rows.filter((r) => r.pass === false),
    unchecked: rows.filter((r) => r.status !== 'ok' && !r.target.report),
  };
}

export function writeJson(file, payload) {
  writeFileSync(file, `${JSON.stringify(payload, null, 2)}\n`);
}
