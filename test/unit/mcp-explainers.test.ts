// `wes mcp` asks the command groups' error explainers as every command's error path does; it names
// them itself (reading them from the manifest would be an import cycle), so this fails when a
// group registers one the MCP server would not ask.
import { describe, expect, it } from 'vitest';
import { GROUPS } from '../../src/commands/groups.js';
import { EXPLAINERS } from '../../src/mcp/explain.js';

describe('the MCP server\'s error explainers', () => {
  it('are the ones the command groups register, in their order', () => {
    const registered = GROUPS.flatMap(([folder, group]) => (group.explainers ?? []).map((module) => `${folder}/${module}`));
    expect(EXPLAINERS.map((e) => `${e.group}/${e.module}`)).toEqual(registered);
  });

  it('each loads a module with an explain function', async () => {
    for (const e of EXPLAINERS) expect(typeof (await e.load()).explain).toBe('function');
  });
});
