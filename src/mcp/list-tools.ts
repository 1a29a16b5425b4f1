// `wes mcp --list-tools`: the tools for people, each with what it does, whether it changes or
// destroys something, and its input fields (required ones marked *). --json prints tools/list's
// array as an MCP client receives it.
import type { IOStreams } from '../render/io.js';
import { listedTools } from './tools/index.js';

type Listed = ReturnType<typeof listedTools>[number];

function kind(t: Listed): string {
  if (t.annotations.destructiveHint) return 'destructive';
  return t.annotations.readOnlyHint ? 'read-only' : 'changes things';
}

function fieldLines(t: Listed): string[] {
  const props = (t.inputSchema.properties ?? {}) as Record<string, { type?: string; enum?: string[]; oneOf?: Array<{ type: string }>; description?: string }>;
  const required = new Set((t.inputSchema.required ?? []) as string[]);
  return Object.entries(props).map(([name, p]) => {
    const type = p.enum ? p.enum.join('|') : p.oneOf ? p.oneOf.map((o) => o.type).join('|') : (p.type ?? 'any');
    return `    ${name}${required.has(name) ? '*' : ''} (${type}): ${p.description ?? ''}`;
  });
}

export function printTools(io: IOStreams): void {
  const tools = listedTools();
  if (io.json) {
    io.printJson(tools);
    return;
  }
  const blocks = tools.map((t) => [`${t.name}  [${kind(t)}]  ${t.title}`, `  ${t.description}`, ...fieldLines(t)].join('\n'));
  io.println(blocks.join('\n\n'));
  io.info(`${tools.length} tools; an agent launches the server as {"command": "wes", "args": ["mcp"]}`);
}
