// Every tool's input schema is a valid JSON Schema 2020-12 document. The server's InputChecker
// compiles them without checking that (src/mcp/input.ts: it would cost each `wes mcp` the
// meta-schema's compile), so this is where a malformed schema is caught.
import Ajv2020Module from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { TOOLS } from '../../src/mcp/tools/index.js';

const Ajv2020 = Ajv2020Module.default ?? Ajv2020Module;

describe('the MCP tools\' input schemas', () => {
  const ajv = new Ajv2020({ allErrors: true, strict: false, logger: false });

  it.each(TOOLS.map((t) => [t.name, t] as const))('%s: valid against the 2020-12 meta-schema', (_name, tool) => {
    expect(ajv.validateSchema(tool.inputSchema), ajv.errorsText(ajv.errors)).toBe(true);
  });

  it('a malformed schema is refused by that check', () => {
    expect(ajv.validateSchema({ type: 'object', properties: { n: { type: 'integer', minimum: 'zero' } } })).toBe(false);
  });
});
