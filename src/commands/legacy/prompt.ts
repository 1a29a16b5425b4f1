// wes legacy prompt <workflow.json|-> [--wait] [--ws] [--previews DIR] [--download DIR]
// Submits an API-format workflow to POST /api/prompt. --wait polls the status; --ws follows the
// WebSocket (opened before submitting, so nothing is missed); --download and --previews need the
// socket too, since only its `executed` messages name the outputs.
import type { Factory } from '../../factory.js';
import { ExitCode, WesError } from '../../errors.js';
import { renderTable } from '../../render/table.js';
import { nodeErrorRows } from '../../render/error.js';
import { sanitizeLine } from '../../render/sanitize.js';
import { isRecord, type LegacyClient } from '../../clients/legacy/client.js';
import type { V1PromptResponse } from '../../protocol/legacy.js';
import { readWorkflow } from '../jobs/workflow-file.js';
import { converterFromOptions } from '../workflows/conversion.js';
import { checkLegacyTargets, downloadOutputs } from './files.js';
import { PromptFollower, type FollowResult } from './follow-prompt.js';
import { failureOf, showTraceback } from './report.js';
import { intervalMs } from '../poll-interval.js';
import { legacyClient } from './shared.js';
import { pollToEnd } from './wait.js';
import { existingPolicy, type ExistingPolicy } from '../../files/existing.js';
import { reportKept, type KeptPart } from '../../files/kept.js';
import { statusReader } from './engine.js';
import { waitForTerminalStatus } from '../../clients/legacy/poll.js';
import type { StatusReader } from '../../clients/legacy/prompt-state.js';
import type { NodeFileRef } from '../../clients/legacy/tracker.js';
import type { LegacyPromptOptions } from './options.js';

function refusal(answer: V1PromptResponse): WesError | null {
  if (answer.error === undefined || answer.error === null) return null;
  const error = answer.error;
  const message = typeof error === 'string' ? error : isRecord(error) && typeof error.message === 'string' ? error.message : 'the server refused the workflow';
  return new WesError(message, {
    exitCode: ExitCode.REFUSED,
    code: isRecord(error) && typeof error.type === 'string' ? error.type : 'invalid_workflow',
    details: { node_errors: isRecord(answer.node_errors) ? answer.node_errors : {} },
    origin: 'legacy',
  });
}

async function submit(f: Factory, client: LegacyClient, workflow: Record<string, unknown>): Promise<{ promptId: string; answer: V1PromptResponse }> {
  const partnerKey = f.settings().partnerKey;
  const answer = await client.submit(workflow, partnerKey ? { api_key_service_org: partnerKey } : undefined);
  const refused = refusal(answer);
  if (refused) throw refused;
  // The local engine may queue a prompt while reporting problems in some of its outputs.
  if (isRecord(answer.node_errors) && Object.keys(answer.node_errors).length > 0) {
    f.io.warn('warning: the server reported node errors but queued the prompt:');
    f.io.warn(renderTable(f.io, ['node', 'class', 'type', 'message', 'details'], nodeErrorRows(answer.node_errors), 'stderr'));
  }
  return { promptId: answer.prompt_id!, answer };
}

async function followBySocket(f: Factory, client: LegacyClient, workflow: Record<string, unknown>, opts: LegacyPromptOptions): Promise<number> {
  const existing = existingPolicy(opts);
  const reader = await statusReader(f, client);
  const follower = new PromptFollower(f, client, reader, { previewsDir: opts.previews, existing, workflow, checkEveryMs: intervalMs(opts.interval, 5) });
  await follower.connect();
  let submitted: { promptId: string; answer: V1PromptResponse };
  try {
    submitted = await submit(f, client, workflow);
  } catch (err) {
    follower.close();
    throw err;
  }
  const { promptId, answer } = submitted;
  if (f.io.json) f.io.printJson(answer, true);
  else f.io.println(promptId);
  const result = await follower.follow(promptId);
  const files = result.status === 'success' && opts.download ? await download(f, client, reader, result, opts.download, existing) : [];
  if (f.io.json) f.io.printJson({ prompt_id: promptId, status: result.status, ...(opts.download ? { files } : {}) }, true);
  if (result.previewsSaved > 0) f.io.info(`saved ${result.previewsSaved} preview(s) in ${opts.previews!}`);
  showTraceback(f, result.outcome);
  const failure = failureOf(promptId, result.status, result.outcome);
  if (failure) throw failure;
  return 0;
}

/**
 * The outputs to save: on a self-hosted engine its history lists them (complete even when the
 * socket missed an `executed` message; written just after the run ends, so it is waited for); on
 * the cloud only the socket's `executed` messages name them.
 */
async function outputsOf(f: Factory, reader: StatusReader, result: FollowResult): Promise<NodeFileRef[]> {
  if (reader.engine === null) await reader.read(result.promptId); // finds out which server this is
  if (reader.engine === 'cloud') return result.tracker.outputs;
  const state = await waitForTerminalStatus(reader, result.promptId, { intervalMs: 100, signal: f.signal });
  return state.outputs;
}

async function download(f: Factory, client: LegacyClient, reader: StatusReader, result: FollowResult, dir: string, existing: ExistingPolicy): Promise<string[]> {
  const refs = await outputsOf(f, reader, result);
  if (result.reconnects > 0 && reader.engine === 'cloud') f.io.warn('warning: the WebSocket reconnected during the run; outputs reported while it was down are not known and were not downloaded');
  if (!refs.some((r) => r.type === 'output')) {
    f.io.warn('warning: the prompt reported no output files to download');
    return [];
  }
  const kept: KeptPart[] = [];
  const saved = await downloadOutputs(
    client,
    refs,
    dir,
    (file, ref) => f.io.info(`${file.kept ? 'kept the existing' : 'saved'} ${file.path} (${file.bytes} bytes, node ${sanitizeLine(ref.node)})`),
    { existing, warn: (line) => f.io.warn(line), onKept: (part) => kept.push(part) },
  ).finally(() => reportKept(f.io, kept, `wes legacy view FILENAME -o ${dir}/FILENAME for each file above (the prompt's outputs stay on the service)`));
  return saved.map((s) => s.path);
}

export async function run(f: Factory, args: string[], opts: LegacyPromptOptions): Promise<number> {
  await checkLegacyTargets(opts);
  const workflow = await readWorkflow(args[0]!, f.io.stdin, converterFromOptions(f, opts), { signal: f.signal, isTTY: f.io.stdinIsTTY, say: (line) => f.io.info(line) });
  const client = await legacyClient(f, 'prompt');
  if (opts.ws || opts.download || opts.previews) return followBySocket(f, client, workflow, opts);
  const { promptId, answer } = await submit(f, client, workflow);
  if (!opts.wait) {
    if (f.io.json) f.io.printJson(answer);
    else f.io.println(promptId);
    f.io.info(`submitted prompt ${promptId}; follow it with \`wes legacy watch ${promptId}\``);
    return 0;
  }
  if (!f.io.json) f.io.println(promptId);
  const state = await pollToEnd(f, await statusReader(f, client), promptId, intervalMs(opts.interval, 1));
  if (f.io.json) f.io.printJson({ ...answer, status: state.status });
  showTraceback(f, state.outcome);
  const failure = failureOf(promptId, state.status, state.outcome);
  if (failure) throw failure;
  return 0;
}
