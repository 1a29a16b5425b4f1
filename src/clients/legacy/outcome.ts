// What a finished v1 job means for the exit code and the user: terminal status values, the
// WebSocket's end messages, and a hint per `exception_type` of `execution_error`.
import { ExitCode } from '../../errors.js';
import type { WsOutcome } from './tracker.js';
import { isV1Success, isV1Terminal } from '../../protocol/legacy.js';

export function exitCodeForStatus(status: string): number {
  if (isV1Success(status)) return ExitCode.OK;
  if (status === 'cancelled') return ExitCode.CANCELED;
  return isV1Terminal(status) ? ExitCode.FAILED : ExitCode.ERROR;
}

/** The status name a WebSocket ending corresponds to, when the REST status cannot say better. */
export function statusOfOutcome(outcome: WsOutcome): string {
  if (outcome.kind === 'success') return 'success';
  if (outcome.kind === 'interrupted') return 'cancelled';
  return outcome.exceptionType === 'ValidationError' ? 'non_retryable_error' : 'error';
}

const EXCEPTION_HINTS: Record<string, string> = {
  ValidationError: 'the workflow or its inputs are invalid; fix them before submitting again (retrying will not help)',
  ModelDownloadError: 'a required model is unavailable or failed to download; check the model names in the workflow',
  ImageDownloadError: 'an input image could not be downloaded from its URL; check that the URL is reachable',
  OOMError: 'the GPU ran out of memory; lower the resolution or batch size and submit again',
  InsufficientFundsError: 'the balance is too low for partner nodes; add credits and submit again',
  InactiveSubscriptionError: 'running workflows needs an active subscription',
};

export function hintForException(exceptionType: string): string | undefined {
  return EXCEPTION_HINTS[exceptionType];
}

export const STATUS_HINTS: Record<string, string> = {
  non_retryable_error: 'retrying the same workflow will not help; fix the workflow or its inputs',
  lost: 'the job disappeared before finishing; submit it again',
};
