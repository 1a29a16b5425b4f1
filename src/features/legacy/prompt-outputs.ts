// Saving what a finished v1 prompt made (`legacy prompt --download DIR`). On a self-hosted engine
// its history lists the outputs (complete even when the socket missed an `executed` message;
// written just after the run ends, so it is waited for); on the cloud the socket's `executed`
// messages name them, and when the socket was lost for a while, the job's record
// (GET /api/jobs/{id}) where the server has one.
import { toWesError } from '../../errors.js';
import { isRecord } from '../../clients/legacy/client.js';
import { waitForTerminalStatus } from '../../clients/legacy/poll.js';
import { fileRefsOf, type NodeFileRef } from '../../clients/legacy/tracker.js';
import type { LegacySession } from '../../clients/legacy/session.js';
import type { ExistingPolicy } from '../../files/existing.js';
import { keptNotices, type KeptPart } from '../../files/kept.js';
import { sanitizeLine } from '../../util/sanitize.js';
import type { FeatureContext } from '../context.js';
import type { Reporter } from '../reporter.js';
import type { FollowResult } from './follow-prompt.js';
import { downloadOutputs } from './files.js';

async function outputsOf(f: Pick<FeatureContext, 'signal' | 'hashing'>, session: LegacySession, result: FollowResult, reporter: Reporter): Promise<NodeFileRef[]> {
  const reader = session.reader();
  if (reader.engine === null) await reader.read(result.promptId); // finds out which server this is
  if (reader.engine === 'self-hosted') return (await waitForTerminalStatus(reader, result.promptId, { intervalMs: 100, signal: f.signal })).outputs;
  if (result.reconnects === 0) return result.tracker.outputs;
  try {
    const job = await session.client.job(result.promptId);
    return isRecord(job.outputs) ? Object.entries(job.outputs).flatMap(([node, output]) => fileRefsOf(node, output)) : [];
  } catch (err) {
    reporter.notice('debug', `the job's record could not be read (${toWesError(err).message})`);
    reporter.notice('warn', 'warning: the WebSocket reconnected during the run; outputs reported while it was down are not known and were not downloaded');
    return result.tracker.outputs;
  }
}

/** The paths of the outputs saved into `dir`, each told as it lands. */
export async function savePromptOutputs(f: Pick<FeatureContext, 'signal' | 'hashing'>, session: LegacySession, result: FollowResult, dir: string, existing: ExistingPolicy, reporter: Reporter): Promise<string[]> {
  const refs = await outputsOf(f, session, result, reporter);
  if (!refs.some((r) => r.type === 'output')) {
    reporter.notice('warn', 'warning: the prompt reported no output files to download');
    return [];
  }
  const kept: KeptPart[] = [];
  const saved = await downloadOutputs(
    session.client,
    refs,
    dir,
    (file, ref) => reporter.notice('info', `${file.kept ? 'kept the existing' : 'saved'} ${file.path} (${file.bytes} bytes, node ${sanitizeLine(ref.node)})`),
    { existing, warn: (line) => reporter.notice('warn', line), onKept: (part) => kept.push(part), hashing: f.hashing() },
  ).finally(() => {
    for (const line of keptNotices(kept, `wes legacy view FILENAME -o ${dir}/FILENAME for each file above (the prompt's outputs stay on the service)`)) reporter.notice('notice', line);
  });
  return saved.map((s) => s.path);
}
