// `wes mcp` where the profile points at a bare ComfyUI engine: the v1 family's prompt and queue
// tools, a refused prompt as an error result with its node errors.
import { describe, expect, it } from 'vitest';
import { imageWorkflow, useDevServer } from '../helpers/dev-server.js';
import { structured, text, useMcp } from './mcp-env.js';

describe('wes mcp against a ComfyUI engine', () => {
  const ctx = useDevServer({ deployment: 'self-hosted', engineOnly: true, stepMs: 5 });
  const mcp = useMcp(() => ({ WES_BASE_URL: ctx.server.url }));

  it('engine_prompt queues a workflow and, with wait, polls it to success with its outputs; engine_queue reads the queue', async () => {
    const result = await mcp().call('engine_prompt', { workflow: imageWorkflow({ prefix: 'mcp-engine', steps: 2 }), wait: true });
    expect(result.isError, text(result)).toBeFalsy();
    const s = structured(result);
    expect(s).toMatchObject({ finished: true, succeeded: true, status: 'success' });
    expect(s.prompt_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.stringify(s.outputs)).toContain('mcp-engine');
    const queue = await mcp().call('engine_queue', {});
    expect(queue.isError, text(queue)).toBeFalsy();
    expect(structured(queue)).toMatchObject({ running: [], pending: [] });
  });

  it('a workflow the engine refuses is an error result with exit code 6 and its node errors', async () => {
    const refused = await mcp().call('engine_prompt', { workflow: { '1': { class_type: 'NoSuchNode', inputs: {} } } });
    expect(refused.isError).toBe(true);
    expect(structured(refused).error.exit_code).toBe(6);
    expect(text(refused)).toContain('NoSuchNode');
  });
});
