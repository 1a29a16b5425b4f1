// Every target the bench checks, in one table (issue 31, and the rows of earlier issues that keep
// theirs). A ratio is wes / reference for times (`max`) and wes / reference for throughputs
// (`min`); where the reference is a C tool, it is that tool plus `node -e 0` timed in the same
// runs (the floor: what a node CLI that did exactly what the tool does would take), so a ratio
// of 1 means "no slower than starting node and running curl". `--check` exits non-zero when any
// row misses its target (see run.mjs).

export const TARGETS = {
  /** `wes --version` against `node -e 0`. */
  version: { max: 1.5 },
  /** `wes --help` against `node -e 0`. */
  help: { max: 2 },
  /** `wes jobs get ID --json` against `node -e 0` + curl of the same URL; peak RSS at most node's + this. */
  'jobs-get': { max: 1.15, rssOverNodeMb: 15 },
  /** A verified download (256 MiB quick, 1 GiB full) against `node -e 0` + `curl -o`; peak RSS. */
  download: { max: 1.15, rssMb: 100 },
  /** Steady-state time per MB (the slope between the smallest and the largest size) against curl's. */
  'download-growth': { max: 1.25 },
  /** blake3 in-process against `b3sum --num-threads 1`. */
  blake3: { min: 0.5 },
  /** `wes assets upload` (hash, from-hash, upload) against `node -e 0` + `curl -F`. */
  upload: { max: 1.15 },
  /** `wes models run` with a 5 MB body against `node -e 0` + curl. */
  'models-run': { max: 1.15 },
  /** `wes models list --all` over 10 000 models against `node -e 0` + the server's own page times. */
  catalog: { max: 1.3 },
  /** legacy watch of ~51 000 WebSocket messages: CPU against a bare ws client's. */
  'legacy-watch': { max: 1.2 },
  /** `jobs watch` of an idle job: share of one core. */
  'jobs-watch-idle': { limit: { max: 1, unit: '%' } },
  /** The dev-server's worst GET while it hashes a large SaveBytes output. */
  'dev-server-commit': { limit: { max: 100, unit: 'ms' } },
  /** Batches of quick lines against the server's capacity; at 100 000 lines peak RSS below this, and within `rssGrowth` of the 1 000-line run's. */
  'batch-scale': { min: 0.8, rssMb: 150, rssGrowth: 1.1 },
  /** The single executable (`npm run build:sea`): `--version` against `node -e 0`. */
  'sea-version': { max: 1.05 },
  /** The single executable's `jobs get ID --json` against `node -e 0` + curl. */
  'sea-jobs-get': { max: 1.1 },
  /** The single executable's peak RSS (jobs get) against the npm build's, in the same runs. */
  'sea-rss': { max: 1 },
  /** The single executable's `models run` (5 MB) against `node -e 0` + curl. */
  'sea-models-run': { max: 1.15 },
  /** A batch on a self-hosted engine against the same batch through the job API v2; peak RSS. */
  'batch-engine': { max: 1.25, rssMb: 150, rssGrowth: 1.1 },
};

/** The ratio part of a row's target (what row() checks), without the extra limits. */
export function ratioTarget(id) {
  const { max, min, limit } = TARGETS[id];
  return { ...(max !== undefined ? { max } : {}), ...(min !== undefined ? { min } : {}), ...(limit ? { limit } : {}) };
}
