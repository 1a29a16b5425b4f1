// wes models result MODEL REQUEST_ID (or @last) [-o FILE | --download DIR] [--wait]: a queued
// request's output, as `models run` gives it (the router's bytes unchanged; a binary output never
// raw on a terminal). Not ready yet: exit 8 naming --wait, or with --wait the request is followed
// until it is.
import type { Factory } from '../../factory.js';
import { existingPolicy } from '../../files/existing-policy.js';
import { modelsClient } from './context.js';
import { collectQueued } from './follow.js';
import { checkTargets } from './output.js';
import { requestArgs } from './requests-context.js';
import type { ModelsResultOptions } from './options.js';

export async function run(f: Factory, args: string[], opts: ModelsResultOptions): Promise<number> {
  const { ref, requestId } = requestArgs(f, args, 'result');
  const target = { output: opts.output, download: opts.download, show: opts.show, existing: existingPolicy(opts) };
  if (!(await checkTargets(f, target, 'the result was not collected'))) return 0;
  return collectQueued(f, modelsClient(f), ref, requestId, target, opts.wait === true);
}
