// A tool's arguments checked against its input schema before it runs, every problem at once, as
// a usage error (wes's exit code 2) that names each field: the agent fixes its call and tries again.
import Ajv2020Module, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { UsageError } from '../errors.js';
import type { Tool } from './tool.js';

const Ajv2020 = Ajv2020Module.default ?? Ajv2020Module;

function problem(e: ErrorObject): string {
  const at = e.instancePath === '' ? 'the arguments' : e.instancePath.slice(1).replaceAll('/', '.');
  if (e.keyword === 'additionalProperties') return `${at}: unknown field ${JSON.stringify((e.params as { additionalProperty: string }).additionalProperty)}`;
  if (e.keyword === 'required') return `${at}: missing field ${JSON.stringify((e.params as { missingProperty: string }).missingProperty)}`;
  return `${at} ${e.message ?? 'is not valid'}`;
}

export class InputChecker {
  // The schemas are wes's own, checked against the 2020-12 meta-schema by a test
  // (test/unit/mcp-tool-schemas.test.ts): compiling the meta-schema at the first call of every
  // `wes mcp` cost about 90 ms of CPU, most of that call's.
  private readonly ajv = new Ajv2020({ allErrors: true, strict: false, logger: false, validateSchema: false });
  private readonly compiled = new Map<string, ValidateFunction>();

  /** The arguments (an empty object when none came); throws a UsageError listing every problem. */
  check(tool: Tool, args: Record<string, unknown> | undefined): Record<string, unknown> {
    let validate = this.compiled.get(tool.name);
    if (!validate) {
      validate = this.ajv.compile(tool.inputSchema);
      this.compiled.set(tool.name, validate);
    }
    const given = args ?? {};
    if (validate(given)) return given;
    const problems = (validate.errors ?? []).map(problem);
    throw new UsageError(`${tool.name}: ${problems.join('; ')}`, `the input schema of ${tool.name} (tools/list) says what each field takes`);
  }
}
