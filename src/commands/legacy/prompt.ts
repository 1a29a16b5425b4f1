// wes legacy prompt <workflow.json|-> [--wait] [--ws] [--previews DIR] [--download DIR]
// Submits an API-format workflow to POST /api/prompt. --wait polls the status; --ws follows the
// WebSocket (opened before submitting, so nothing is missed, and named in the submit as its
// client id: an engine sends a prompt's messages to that client alone); --download and --previews
// need the socket too. On an engine the prompt also carries an id of wes's own, which a newer
// engine uses as given. Once the prompt is accepted, a failure of what follows (the socket, a
// status read) says that the prompt runs on, and how to follow it.
import type { Factory } from '../../factory.js';
import { InterruptedError, toWesError } from '../../errors.js';
import { isV1Success, type V1PromptResponse } from '../../protocol/legacy.js';
import { submit } from '../../command-kit/legacy/submit-prompt.js';
import { readWorkflow } from '../../workflows/workflow-file.js';
import { checkLegacyTargets } from '../../features/legacy/files.js';
import { PromptFollower, type FollowResult } from '../../features/legacy/follow-prompt.js';
import { promptPoll } from '../../features/legacy/poll-prompt.js';
import { savePromptOutputs } from '../../features/legacy/prompt-outputs.js';
import { endOfPrompt, reportPreviews } from './report.js';
import { intervalMs } from '../poll-interval.js';
import { legacyClient } from '../../command-kit/legacy/shared.js';
import { PromptView } from './prompt-view.js';
import { reporterOn } from '../reporters.js';
import { existingPolicy } from '../../files/existing.js';
import { existingFileOptions, existingFileRules, type ExistingFileOptions } from '../option-values.js';
import { flag, needs, nonEmpty, repeatableOption, valueOption, type OptionsDeclaration, type OptionsRule } from '../typed-options.js';
import { checkSetSyntax } from '../../features/jobs/set-syntax.js';
import { applyLegacySets, parseLegacySets } from '../../features/legacy/set-inputs.js';
import { oneSource, savedOption } from '../workflows/saved-source.js';
import { savedWorkflowToRun } from '../../command-kit/workflows/saved-workflow.js';
import { intervalOption } from '../poll-interval.js';
import { convertDeclaration, convertRules, converterFromOptions, type ConvertOptions } from '../workflows/convert-options.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';

interface LegacyPromptOptions extends ConvertOptions, ExistingFileOptions {
  saved?: string;
  set?: string[];
  wait?: boolean;
  ws?: boolean;
  previews?: string;
  download?: string;
  interval?: number;
}

const legacyPromptOptions = (): OptionsDeclaration<LegacyPromptOptions> => ({
  ...convertDeclaration(),
  saved: savedOption().conflicts('convert'),
  set: repeatableOption('--set <node.input=value>', 'set an input: JSON when it parses, else a string; @PATH uploads the file as an input image and puts its name in (repeatable)', checkSetSyntax),
  wait: flag('--wait', 'poll the status until the prompt ends; exit code by outcome'),
  ws: flag('--ws', 'follow the WebSocket instead: live node and step progress'),
  previews: valueOption('--previews <dir>', 'save preview images into DIR (follows the WebSocket)', nonEmpty),
  download: valueOption('--download <dir>', 'when the prompt succeeds, save its outputs into DIR (follows the WebSocket)', nonEmpty),
  interval: intervalOption('seconds between status polls (default 1; 5 as a safety net while on the WebSocket)'),
  ...existingFileOptions(),
});

/**
 * Without --wait or a WebSocket flag the prompt is only submitted: nothing is polled or saved, so
 * --interval and the file flags would be silently ignored. (--wait beside --ws is not refused:
 * both wait for the end, the socket with live progress.)
 */
const legacyPromptRules: Array<OptionsRule<LegacyPromptOptions>> = [
  ...convertRules<LegacyPromptOptions>('saved'),
  needs('interval', 'wait', 'ws', 'previews', 'download'),
  ...existingFileRules<LegacyPromptOptions>('download', 'previews'),
];

const positional = { workflow: arg('[workflow]') };

/** What a follow (by socket or by REST) ended with. */
interface Ended {
  status: string;
  result?: FollowResult;
  outcome: FollowResult['outcome'];
  errorMessage?: string;
}

/** A failure after the prompt was accepted names it as running on, with the command that follows it. */
function runsOn(err: unknown, promptId: string): unknown {
  if (err instanceof InterruptedError) return err; // it says so already, with its own resume line
  const wes = toWesError(err);
  const follow = `prompt ${promptId} was accepted and runs on without wes: follow it with \`wes legacy watch ${promptId}\``;
  wes.hint = wes.hint ? `${follow}; ${wes.hint}` : follow;
  return wes;
}

async function run(f: Factory, args: ArgsOf<typeof positional>, opts: LegacyPromptOptions): Promise<number> {
  await checkLegacyTargets(opts);
  const from = oneSource(args.workflow, opts.saved, 'name the workflow file to submit (- reads standard input), or --saved NAME for one saved on the server');
  const read = from.kind === 'saved'
    ? (await savedWorkflowToRun(f, from.name, opts)).workflow
    : await readWorkflow(from.file, f.io.stdin, converterFromOptions(f, opts), { signal: f.signal, isTTY: f.io.stdinIsTTY, say: (line) => f.io.info(line) });
  const assignments = parseLegacySets(opts.set ?? [], read);
  const session = await legacyClient(f, 'prompt');
  const workflow = assignments.length > 0 ? await applyLegacySets(session.client, read, assignments, (line) => f.io.info(line)) : read;
  const existing = existingPolicy(opts);
  const follower = opts.ws || opts.download || opts.previews
    ? new PromptFollower(f, session.client, session.reader(), { previewsDir: opts.previews, existing, workflow, checkEveryMs: intervalMs(opts.interval, 5), engine: session.engine }, reporterOn(f.io))
    : null;
  await follower?.connect();
  let submitted: { promptId: string; answer: V1PromptResponse };
  try {
    submitted = await submit(f, session, workflow, follower?.clientId);
  } catch (err) {
    follower?.close();
    throw err;
  }
  const { promptId, answer } = submitted;
  if (!follower && !opts.wait) {
    if (f.io.json) f.io.printJson(answer);
    else f.io.println(promptId);
    f.io.info(`submitted prompt ${promptId}; follow it with \`wes legacy watch ${promptId}\``);
    return 0;
  }
  if (follower && f.io.json) f.io.printJson(answer, true);
  else if (!f.io.json) f.io.println(promptId);
  let ended: Ended;
  try {
    if (follower) {
      const view = await PromptView.open(f.io, promptId, 'waiting for the first message');
      const result = await follower.follow(promptId)(view);
      await view.end(result.status);
      ended = { status: result.status, result, outcome: result.outcome, errorMessage: result.errorMessage };
    } else {
      const view = await PromptView.open(f.io, promptId, 'checking');
      const state = await promptPoll(f, session.reader(), promptId, intervalMs(opts.interval, 1))(view);
      await view.end(state.status);
      ended = { status: state.status, outcome: state.outcome, errorMessage: state.errorMessage };
    }
  } catch (err) {
    throw runsOn(err, promptId);
  }
  const { result } = ended;
  if (result) {
    const files = isV1Success(result.status) && opts.download ? await savePromptOutputs(f, session, result, opts.download, existing, reporterOn(f.io)) : [];
    if (f.io.json) f.io.printJson({ prompt_id: promptId, status: result.status, ...(opts.download ? { files } : {}) }, true);
    if (opts.previews) reportPreviews(f, result, opts.previews);
  } else if (f.io.json) f.io.printJson({ ...answer, status: ended.status });
  return endOfPrompt(f, promptId, ended);
}

export default defineVerb({
  path: ['legacy', 'prompt'],
  args: positional,
  options: legacyPromptOptions(),
  rules: legacyPromptRules,
  help: {
    summary: 'Submit an API-format workflow (- reads standard input), or one saved on the server (--saved NAME); prints the prompt id',
    after: [
      `
The partner-node key (--partner-key, WES_PARTNER_KEY) goes into extra_data.api_key_comfy_org,
the partner token (--partner-token, WES_PARTNER_TOKEN) into extra_data.auth_token_comfy_org.

Examples:
  $ wes legacy prompt flow.json
  $ wes legacy prompt flow.json --ws --download out/
  $ wes legacy prompt --saved "my flow" --set 3.seed=42 --wait
  $ cat flow.json | wes legacy prompt - --wait --json`,
    ],
  },
  run,
});
