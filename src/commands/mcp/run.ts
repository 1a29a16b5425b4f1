// wes mcp: an MCP server on standard input and output for AI agents (src/mcp/). The server, the
// SDK and the tools load only here, so every other command starts as it did. stdout carries only
// the protocol; what wes has to say goes to stderr.
import type { Factory } from '../../factory.js';
import { flag, type OptionsDeclaration } from '../typed-options.js';
import { defineVerb } from '../verb.js';

interface McpOptions {
  listTools?: boolean;
}

const mcpOptions = (): OptionsDeclaration<McpOptions> => ({
  listTools: flag('--list-tools', 'print the tools the server offers, with their inputs, and exit (nothing is served)'),
});

async function run(f: Factory, _args: unknown, opts: McpOptions): Promise<number> {
  if (opts.listTools) {
    const { printTools } = await import('../../mcp/list-tools.js');
    printTools(f.io);
    return 0;
  }
  const [{ serveMcp }, { CliFactory }] = await Promise.all([import('../../mcp/server.js'), import('../../cli-factory.js')]);
  // Each tool call gets a Factory of its own: its own signal (the client may cancel it), its own
  // clients, closed when it ends; the same profile, environment and global flags. Nothing it says
  // may reach stdout, which is the protocol's: its stdout is stderr.
  const { io } = f;
  return serveMcp({
    io,
    signal: f.signal,
    settings: () => f.settings(),
    clock: f.clock,
    openCall: (signal) =>
      CliFactory.create({ stdin: () => io.stdin, stdout: io.stderr, stderr: io.stderr, stdoutIsTTY: false, stderrIsTTY: false, env: f.env, globals: { ...f.globals, json: false, jq: undefined }, signal, settingsUse: f.settingsUse }),
  });
}

export default defineVerb({
  path: ['mcp'],
  args: {},
  options: mcpOptions(),
  help: {
    summary: 'Serve wes to AI agents over the Model Context Protocol (stdio): submit, watch and download jobs, run models',
    group: 'Setup and tools:',
    after: [
      `
An agent (a desktop assistant, a coding agent) launches it as {"command": "wes", "args": ["mcp"]}
and talks JSON-RPC on its standard input and output; logs go to stderr. The profile, credentials
and settings are wes's own (--profile, WES_* variables, the config file), as for any command.
Credentials never appear in a tool's result; a failure is a result with isError, wes's error code
and its hint.

Examples:
  $ wes mcp --list-tools
  $ wes --profile staging mcp`,
    ],
  },
  run,
});
