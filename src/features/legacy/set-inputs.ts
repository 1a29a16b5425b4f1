// --set on `wes legacy prompt`: the job API's --set syntax, on the v1 API. A file (`@PATH`) is
// uploaded as an input image (POST /api/upload/image, never replacing one of the same name) and
// its name, as the engine's loaders read it (`subfolder/name`), goes into the input; `asset:ID`
// names a job API v2 asset, which v1 cannot read.
import { UsageError } from '../../errors.js';
import type { LegacyClient } from '../../clients/legacy/client.js';
import { applyAssignments, parseSet, type AssetInput, type InputAssignment } from '../jobs/inputs.js';

export function parseLegacySets(args: string[], workflow: Record<string, unknown>): InputAssignment[] {
  const assignments = args.map((arg) => parseSet(arg, workflow));
  const asset = assignments.find((a) => a.value.kind === 'asset');
  if (asset) throw new UsageError(`--set ${asset.node}.${asset.input}: asset:ID names a job API v2 asset, which the v1 API cannot read`, 'give the file itself with @PATH (it is uploaded first), or run it with `wes jobs submit`');
  return assignments;
}

export function applyLegacySets(client: LegacyClient, workflow: Record<string, unknown>, assignments: InputAssignment[], say: (line: string) => void): Promise<Record<string, unknown>> {
  return applyAssignments(workflow, assignments, async (input: AssetInput) => {
    if (input.kind !== 'file') throw new UsageError('asset:ID cannot be read by the v1 API');
    const uploaded = await client.upload({ path: input.path, type: 'input', overwrite: false });
    const name = uploaded.subfolder ? `${uploaded.subfolder}/${uploaded.name}` : uploaded.name;
    say(`uploaded ${input.path} as ${name}`);
    return name;
  });
}
