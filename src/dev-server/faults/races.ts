// The reference self-hosted server's races, as faults a test can ask for (recorded in
// ../shared/observations/recordings/v2-proxy-edges.json): the fault marks the request, and the
// handler of the job or of its event stream plays the race.
//   end-running   the stream's last `status` says `running`, then it ends, with no `output`
//   end-expired   the stream sends `status` `expired` and ends, with no `output`, while the job runs on
//   late          the stream goes silent after its first events; once the job has ended, at the next
//                 keep-alive, it sends `: keepalive`, the final `status`, then the outputs
//   output-after  the outputs come after the final `status`, not before it
//   expired-read  a read of the job says `expired` (no progress, no outputs) although it is not
import type { IncomingMessage } from 'node:http';
import type { FaultSpec } from '../contract.js';

export type Race = NonNullable<FaultSpec['race']>;
export const RACES = ['end-running', 'end-expired', 'late', 'output-after', 'expired-read'] as const satisfies readonly Race[];

const marked = new WeakMap<IncomingMessage, Race>();

export function markRace(req: IncomingMessage, race: Race): void {
  marked.set(req, race);
}

/** The race asked for this request, if any. */
export function raceOf(req: IncomingMessage): Race | undefined {
  return marked.get(req);
}
