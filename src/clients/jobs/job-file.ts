// Where a download writes the job's own record. job.json describes the files beside it, so it is
// refreshed for the same job, and replaced where it is no job record (a link planted there is
// replaced, never written through); another job's record there is an existing file like any other. The default stops before any byte is fetched; --clobber
// replaces it; --skip-existing keeps it and writes this job's record as job-ID.json beside it.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FileExistsError, lstatOrNone, notOwnPlainFile } from '../../files/safe-file.js';
import type { ExistingPolicy } from '../../files/existing-policy.js';

export const JOB_FILE = 'job.json';

/** Larger than any job record: a file this big is no record of ours and is not read. */
const RECORD_LIMIT = 8 * 1024 * 1024;

/** The id job.json at `path` records: undefined when there is no file, null when it is no job record of ours. */
async function recordedId(path: string): Promise<string | null | undefined> {
  const stats = await lstatOrNone(path);
  if (!stats) return undefined;
  if (notOwnPlainFile(stats) !== undefined || stats.size > RECORD_LIMIT) return null;
  try {
    const record = JSON.parse(await readFile(path, 'utf8')) as { id?: unknown } | null;
    return typeof record?.id === 'string' ? record.id : null;
  } catch {
    return null;
  }
}

/** The path of job `id`'s record in `dir` under the policy; throws FileExistsError when it must not be written. */
export async function jobFileFor(dir: string, id: string, policy: ExistingPolicy): Promise<string> {
  const path = join(dir, JOB_FILE);
  const there = await recordedId(path);
  if (typeof there !== 'string' || there === id || policy === 'clobber') return path;
  if (policy === 'skip') return join(dir, `job-${id}.json`);
  throw new FileExistsError(path, `already describes another job (${there})`);
}
