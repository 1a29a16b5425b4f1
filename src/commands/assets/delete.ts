// wes assets delete ID...: deletes asset records. The bytes behind a record stay while another
// asset still refers to them; a record the service still depends on is refused (409 asset_in_use).
// Every id is tried; the exit code is the first failure's.
import type { Factory } from '../../factory.js';
import { ApiError, ExitCode, WesError } from '../../errors.js';
import { JobsClient } from '../../clients/jobs/client.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { noOptions } from '../typed-options.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';

const positional = { ids: arg('<id...>') };

interface Deleted {
  id: string;
  deleted: boolean;
  error?: { code: string; message: string };
}

/** The refusals one id can get without the others being affected: said, and the next id tried. */
function refusal(err: unknown, id: string): { message: string; exitCode: number; code: string } | undefined {
  if (!(err instanceof ApiError) || err.origin !== 'jobs') return undefined;
  if (err.status === 404) return { message: `asset ${id}: no such asset, or not yours (deleted already?)`, exitCode: ExitCode.NOT_FOUND, code: err.code };
  if (err.status === 409) return { message: `asset ${id} is in use: the service still depends on it (a job's outputs, or a job that reads it); it was not deleted`, exitCode: ExitCode.REFUSED, code: err.code };
  return undefined;
}

/**
 * A server with no asset deletion at all: an earlier release of the self-hosted job API server
 * routes only GET and HEAD on an asset (405). Said once; the other ids would get the same answer.
 */
function noDeletion(err: unknown, id: string, deleted: number): WesError | undefined {
  if (!(err instanceof ApiError) || err.origin !== 'jobs' || (err.status !== 405 && err.status !== 501)) return undefined;
  const kept = deleted === 0 ? 'no asset was deleted' : `asset ${id} and the ones after it were not deleted`;
  return new WesError(`this server does not delete assets (DELETE /api/v2/assets/ID answered ${err.status}): ${kept}`, {
    exitCode: ExitCode.REFUSED,
    code: 'not_supported',
    status: err.status,
    origin: 'jobs',
    cause: err,
    hint: 'its release has no asset deletion (the self-hosted job API server added it later); the records stay until the server forgets them',
  });
}

async function run(f: Factory, { ids }: ArgsOf<typeof positional>): Promise<number> {
  const client = f.client(JobsClient);
  const results: Deleted[] = [];
  let exitCode: number = ExitCode.OK;
  for (const id of ids) {
    try {
      await client.deleteAsset(id);
      results.push({ id, deleted: true });
      f.io.info(sanitizeLine(`✓ deleted asset ${id}`));
    } catch (err) {
      const unsupported = noDeletion(err, id, results.filter((r) => r.deleted).length);
      if (unsupported) throw unsupported;
      const refused = refusal(err, id);
      if (!refused) throw err;
      results.push({ id, deleted: false, error: { code: refused.code, message: refused.message } });
      f.io.warn(sanitizeLine(refused.message));
      if (exitCode === ExitCode.OK) exitCode = refused.exitCode;
    }
  }
  if (f.io.json) f.io.printJson(results);
  return exitCode;
}

export default defineVerb({
  path: ['assets', 'delete'],
  args: positional,
  options: noOptions(),
  help: {
    summary: 'Delete asset records (their bytes stay while another asset uses them); every id is tried',
    after: [
      `
Exit 0 when every record was deleted; 5 for an id that is no asset of yours; 6 for one the service still
depends on (asset_in_use), or a server that deletes no assets at all (an earlier self-hosted release).

Examples:
  $ wes assets delete "$ASSET"
  $ wes assets delete "$A" "$B" --json | jq -r '.[] | select(.deleted | not) | .id'`,
    ],
  },
  run,
});
