// How a finished v1 prompt is reported: a terminal status that is not `success` becomes one error
// (exit 3 for error/non_retryable_error/lost, 10 for cancelled) with a hint per exception type.
import type { Factory } from '../../factory.js';
import { ExitCode, WesError } from '../../errors.js';
import { sanitize } from '../../util/sanitize.js';
import { exitCodeForStatus, hintForException, STATUS_HINTS } from '../../clients/legacy/outcome.js';
import type { WsOutcome } from '../../clients/legacy/tracker.js';
import { isV1Success } from '../../protocol/legacy.js';
import type { FollowResult } from '../../features/legacy/follow-prompt.js';

/** `errorMessage`: the cloud status route's `error_message`, when the socket gave no error of its own. */
export function failureOf(promptId: string, status: string, outcome: WsOutcome | null, errorMessage?: string): WesError | null {
  if (isV1Success(status)) return null;
  const details: Record<string, unknown> = { prompt_id: promptId, status };
  if (status === 'cancelled') {
    // Its own hint: the code's generic one speaks of the model router's queued requests.
    const hint = 'it was interrupted on the server (`wes legacy interrupt`, or Cancel in the editor) or taken off the queue before it ended; submit it again for a new run';
    return new WesError(`prompt ${promptId} was cancelled`, { exitCode: ExitCode.CANCELED, code: 'cancelled', hint, details });
  }
  let message = `prompt ${promptId} ended with status ${status}${errorMessage ? `: ${errorMessage}` : ''}`;
  let hint = STATUS_HINTS[status];
  if (errorMessage) details.error_message = errorMessage;
  if (outcome?.kind === 'error') {
    Object.assign(details, {
      exception_type: outcome.exceptionType,
      exception_message: outcome.exceptionMessage,
      node_id: outcome.nodeId,
      node_type: outcome.nodeType,
    });
    const where = outcome.nodeId ? ` in node ${outcome.nodeId}${outcome.nodeType ? ` (${outcome.nodeType})` : ''}` : '';
    message = `prompt ${promptId} failed${where}: ${outcome.exceptionType}: ${outcome.exceptionMessage}`;
    hint = hintForException(outcome.exceptionType) ?? hint;
  }
  return new WesError(message, { exitCode: exitCodeForStatus(status), code: status, hint, details });
}

/** The traceback of an execution error, for --verbose. */
export function showTraceback(f: Factory, outcome: WsOutcome | null): void {
  if (outcome?.kind !== 'error' || !outcome.traceback) return;
  for (const line of sanitize(outcome.traceback).split('\n')) f.io.debug(line);
}

/** How a followed prompt ends the command: its traceback with --verbose, then exit 0, or its failure thrown. */
export function endOfPrompt(f: Factory, promptId: string, ended: { status: string; outcome: WsOutcome | null; errorMessage?: string }): number {
  showTraceback(f, ended.outcome);
  const failure = failureOf(promptId, ended.status, ended.outcome, ended.errorMessage);
  if (failure) throw failure;
  return 0;
}

/**
 * After a run with --previews: how many were saved, or why none were (a run that sent none, or
 * frames that came while other prompts executed too). One line either way.
 */
export function reportPreviews(f: Factory, result: FollowResult, dir: string): void {
  if (result.previewsSaved > 0) return f.io.info(`saved ${result.previewsSaved} preview(s) in ${dir}`);
  if (result.previewsUnattributed > 0) {
    return f.io.warn(`warning: no preview saved in ${dir}: ${result.previewsUnattributed} preview frame(s) came while other prompts were executing too, so none could be told as this prompt's`);
  }
  f.io.warn(`warning: no preview saved in ${dir}: the server sent none for prompt ${result.promptId} (an engine sends them only from samplers, and only when started with --preview-method)`);
}
