// Small statistics and unit formatting shared by every case.

export function median(values) {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function max(values) {
  return values.reduce((a, b) => (Number.isFinite(b) && b > a ? b : a), -Infinity);
}

export const MiB = 1024 * 1024;
export const GiB = 1024 * MiB;

/** Throughput in MB/s (10^6 bytes: what curl and b3sum users compare). */
export function mbPerSecond(bytes, ms) {
  return ms > 0 ? bytes / 1e6 / (ms / 1000) : NaN;
}

export function formatValue(value, unit) {
  if (!Number.isFinite(value)) return '–';
  if (unit === 'ms') return value >= 10_000 ? `${(value / 1000).toFixed(1)} s` : `${value.toFixed(value < 100 ? 1 : 0)} ms`;
  if (unit === 'MB/s') return `${value.toFixed(0)} MB/s`;
  if (unit === '%') return `${value.toFixed(2)} %`;
  if (unit === 'MB') return `${value.toFixed(0)} MB`;
  if (unit === 'jobs/s') return `${value.toFixed(1)} jobs/s`;
  return `${value.toFixed(2)} ${unit}`;
}

export function formatSize(bytes) {
  return bytes >= 1024 * MiB ? `${bytes / (1024 * MiB)} GiB` : `${bytes / MiB} MiB`;
}
