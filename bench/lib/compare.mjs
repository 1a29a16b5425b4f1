// Runs wes and its reference alternately (warm-up first), so drift on a busy machine hits both
// sides alike, and summarises each side by its median.
import { max, median } from './stats.mjs';

/**
 * sides: { wes: (i) => Promise<result>, reference?: (i) => Promise<result> } where a result is a
 * measure() result, optionally with extra numeric fields. A side whose run exits non-zero (not in
 * okCodes) stops the series; its failure is returned for the case to report.
 */
export async function interleave(sides, { warmup = 1, runs = 3, okCodes = [0] } = {}) {
  const names = Object.keys(sides).filter((n) => sides[n]);
  const results = Object.fromEntries(names.map((n) => [n, []]));
  for (let i = 0; i < warmup + runs; i++) {
    for (const name of names) {
      const result = await sides[name](i);
      if (!okCodes.includes(result.code)) return { results, failed: { side: name, result } };
      if (i >= warmup) results[name].push(result);
    }
  }
  return { results, failed: null };
}

export function summary(results) {
  const pick = (key) => results.map((r) => r[key]).filter((v) => v !== undefined);
  return {
    wallMs: median(pick('wallMs')),
    cpuMs: median(pick('cpuMs')),
    maxRssMb: max(pick('maxRssMb')),
    runs: results.length,
  };
}

/** One line about why a run failed, for the table's note. */
export function failureNote(failed) {
  const { side, result } = failed;
  const text = (result.stderr || result.stdout || '').trim().split('\n').slice(-3).join(' | ').slice(0, 300);
  return `${side} run exited ${result.code}: ${text}`;
}
