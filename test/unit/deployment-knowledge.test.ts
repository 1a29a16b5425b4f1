// What a base URL's deployment is, learnt from answers and remembered between commands: an answer
// that says what the memory already holds writes nothing; a new one is written once; a pinned
// setting stands whatever the answers say.
import { describe, expect, it } from 'vitest';
import { DeploymentKnowledge, type Deployment, type DeploymentMemory } from '../../src/clients/jobs/deployment.js';

function memory(held?: Deployment): DeploymentMemory & { writes: Deployment[] } {
  const writes: Deployment[] = [];
  return { writes, read: async () => held, write: async (_url, d) => void writes.push(d) };
}

describe('DeploymentKnowledge', () => {
  it('writes nothing when a fresh process learns what the memory already holds', async () => {
    const m = memory('self-hosted');
    const k = new DeploymentKnowledge('http://127.0.0.1:1', 'auto', m);
    await k.learn('self-hosted');
    await k.learn('self-hosted');
    expect(m.writes).toEqual([]);
    expect(await k.current()).toBe('self-hosted');
  });

  it('writes a deployment that differs from the memory once, and then knows it', async () => {
    const m = memory('self-hosted');
    const k = new DeploymentKnowledge('http://127.0.0.1:1', 'auto', m);
    await k.learn('cloud');
    await k.learn('cloud');
    expect(m.writes).toEqual(['cloud']);
    expect(await k.current()).toBe('cloud');
  });

  it('a pinned setting is neither overridden nor written', async () => {
    const m = memory();
    const k = new DeploymentKnowledge('http://127.0.0.1:1', 'serverless', m);
    await k.learn('cloud');
    expect(m.writes).toEqual([]);
    expect(await k.current()).toBe('serverless');
  });
});
