// Per-credential in-flight limits: the number of calls in flight and the committed spend (cents)
// of those calls. A call holds its share from admission until its generation ends, even when the
// router stopped waiting for it (504 deadline_exceeded) or the caller went away.

export interface CredentialUsage {
  inFlight: number;
  committedCents: number;
}

export type Admission =
  /** `headers`: the committed-spend figures of the admitting gate (the published router sends them on the success). */
  | { ok: true; release: () => void; headers: Record<string, string> }
  | { ok: false; detail: string; headers: Record<string, string> };

export function admit(
  usage: Map<string, CredentialUsage>,
  credential: string,
  costCents: number,
  limits: { inFlight: number; spendCents: number },
): Admission {
  const current = usage.get(credential) ?? { inFlight: 0, committedCents: 0 };
  if (current.inFlight >= limits.inFlight) {
    return {
      ok: false,
      detail: `Concurrent calls limit reached: ${current.inFlight} calls in flight for this credential (limit ${limits.inFlight}). Retry when one of them finishes.`,
      headers: {},
    };
  }
  if (current.committedCents + costCents > limits.spendCents) {
    const remaining = Math.max(0, limits.spendCents - current.committedCents);
    return {
      ok: false,
      detail: `Committed spend limit reached: this call costs ${costCents} cents, ${current.committedCents} cents are committed to calls in flight (limit ${limits.spendCents}). Retry when one of them finishes.`,
      headers: {
        'x-committed-spend-limit': String(limits.spendCents),
        'x-committed-spend-current': String(current.committedCents),
        'x-committed-spend-remaining': String(remaining),
      },
    };
  }
  current.inFlight += 1;
  current.committedCents += costCents;
  usage.set(credential, current);
  let released = false;
  return {
    ok: true,
    headers: {
      'x-committed-spend-limit': String(limits.spendCents),
      'x-committed-spend-current': String(current.committedCents),
      'x-committed-spend-remaining': String(Math.max(0, limits.spendCents - current.committedCents)),
    },
    release: () => {
      if (released) return;
      released = true;
      current.inFlight -= 1;
      current.committedCents -= costCents;
    },
  };
}
