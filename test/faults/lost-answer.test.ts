// A router call whose answer is lost after the router acted on it ends in doubt: the error names
// the Idempotency-Key and the exact command that collects the result (the router hands back the
// first call's answer for the same key). Job submits, whose keys are single use, are covered by
// submit-in-doubt.test.ts.
import { describe, expect, it } from 'vitest';
import { addFaults } from '../helpers/dev-server.js';
import { wesAgainst } from '../cli/jobs-env.js';
import { useFaultServer } from './kit.js';

describe('keys in doubtful endings', () => {
  const fx = useFaultServer({ stepMs: 5 });
  const wes = wesAgainst(() => fx.server);

  it('models run: a lost answer names the key and the run command', async () => {
    await addFaults(fx.server, { match: 'POST /v1/models/dev/echo', action: 'lose', count: 1 });
    const res = await wes(['models', 'run', 'dev/echo', '-d', '{"a":1}', '--idempotency-key', 'k-run-1', '--retries', '0']);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`collect its result with: wes models run dev/echo -d '{"a":1}' --idempotency-key k-run-1`);
  });
});
