// How a followed job's end becomes the exit code (`jobs watch`, the waiting verbs, the MCP follow tools).
import { ExitCode } from '../../errors.js';

export function exitCodeFor(status: string, canceledExit: number = ExitCode.CANCELED): number {
  switch (status) {
    case 'succeeded':
      return ExitCode.OK;
    case 'canceled':
      return canceledExit;
    case 'failed':
    case 'expired':
      return ExitCode.FAILED;
    default:
      return ExitCode.ERROR;
  }
}
