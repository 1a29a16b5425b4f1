// The flags of `wes jobs submit --batch FILE.jsonl` ([--concurrency N] [--resume RESULTS]
// [--results FILE] [--download DIR] [--via ...]) checked and turned into the run of
// src/features/batch/batch.ts they ask for (the options declared in options.ts say which flags go
// with --batch). Loaded only with --batch.
import type { Factory } from '../../factory.js';
import { checkFileTarget, checkFolderTarget } from '../../files/targets.js';
import { refuseEarlierRun, type BatchRun } from '../../features/batch/batch.js';
import { parseBaseUrlTarget } from '../../features/batch/via-target.js';
import { intervalMs } from '../poll-interval.js';
import { labelMap } from './label-option.js';
import type { JobsSubmitOptions } from './options.js';

const DEFAULT_CONCURRENCY = 4;

export async function batchRunOf(f: Factory, batchPath: string, opts: JobsSubmitOptions): Promise<BatchRun> {
  if (opts.download !== undefined) await checkFolderTarget(opts.download, '--download');
  // --base-url given more than once: one endpoint each, beside the --via ones.
  const vias = [...(opts.via ?? []), ...(f.globals.baseUrls ?? []).map(parseBaseUrlTarget)];
  const resultsPath = opts.results;
  if (resultsPath !== undefined) await checkFileTarget(resultsPath, '--results');
  if (resultsPath !== undefined && opts.resume !== resultsPath) refuseEarlierRun(resultsPath, opts.resume);
  return {
    batchPath,
    sets: opts.set ?? [],
    concurrency: opts.concurrency ?? DEFAULT_CONCURRENCY,
    intervalMs: intervalMs(opts.interval),
    vias,
    resultsPath,
    resume: opts.resume,
    download: opts.download,
    events: opts.events !== false,
    resubmitInDoubt: opts.resubmitInDoubt,
    retryFailed: opts.retryFailed,
    labels: labelMap(opts.label),
  };
}
