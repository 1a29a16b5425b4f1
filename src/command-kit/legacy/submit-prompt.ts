// Sending a workflow to a v1 server (`wes legacy prompt`, the MCP engine tool): a refusal is an error
// with the server's node errors; node errors of a queued prompt are warned about on stderr.
import { randomUUID } from 'node:crypto';
import type { Factory } from '../../factory.js';
import { ExitCode, WesError } from '../../errors.js';
import { renderTable } from '../../render/table.js';
import { nodeErrorRows } from '../../render/error.js';
import { isRecord } from '../../clients/legacy/client.js';
import type { LegacySession } from '../../clients/legacy/session.js';
import type { V1PromptResponse } from '../../protocol/legacy.js';
import { promptExtraData } from '../../features/partner-extra-data.js';

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

/**
 * On an engine every prompt names a client (the follower's socket, else an id nobody listens on,
 * so its progress and previews are not sent to every other client of the engine) and an id of
 * wes's own; the cloud gets the socket's id when a socket follows.
 */
export async function submit(f: Factory, session: LegacySession, workflow: Record<string, unknown>, clientId: string | undefined): Promise<{ promptId: string; answer: V1PromptResponse }> {
  const ids = session.engine ? { clientId: clientId ?? randomUUID(), promptId: randomUUID() } : { clientId };
  const answer = await session.client.submit(workflow, promptExtraData(f.settings()), ids);
  const refused = refusal(answer);
  if (refused) throw refused;
  // The local engine may queue a prompt while reporting problems in some of its outputs.
  if (isRecord(answer.node_errors) && Object.keys(answer.node_errors).length > 0) {
    f.io.warn('warning: the server reported node errors but queued the prompt:');
    f.io.warn(renderTable(f.io, ['node', 'class', 'type', 'message', 'details'], nodeErrorRows(answer.node_errors), 'stderr'));
  }
  return { promptId: answer.prompt_id!, answer };
}
