// `wes mcp` driven as an agent drives it: the built bin/wes.js spawned by the MCP SDK's own client
// over stdio, pointed at a dev-server, with every result's text kept so a test can check that no
// credential ever appears in one, and every protocol error the client saw (a stray line on stdout
// would be one).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema, type CallToolResult, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll } from 'vitest';
import { childProcessEnv, WES_BIN, tempConfigDir } from '../helpers/cli.js';

export interface McpSession {
  client: Client;
  /** Text of every result so far (all content blocks, structured content included). */
  said: string[];
  /** What the client saw go wrong on the protocol (stray output on stdout would land here). */
  protocolErrors: Error[];
  stderr(): string;
  call(name: string, args: Record<string, unknown>, opts?: { onprogress?: (p: Progress) => void; timeoutMs?: number }): Promise<CallToolResult>;
  close(): Promise<void>;
}

export async function startMcp(env: Record<string, string>): Promise<McpSession> {
  const config = tempConfigDir();
  const inherited = Object.fromEntries(Object.entries(childProcessEnv()).filter((e): e is [string, string] => typeof e[1] === 'string' && !e[0].startsWith('WES_')));
  const transport = new StdioClientTransport({ command: process.execPath, args: [WES_BIN, 'mcp'], env: { ...inherited, WES_CONFIG_DIR: config.dir, WES_STATE_DIR: config.dir, ...env }, stderr: 'pipe' });
  const errChunks: Buffer[] = [];
  transport.stderr?.on('data', (c: Buffer) => errChunks.push(c));
  const client = new Client({ name: 'wes-test', version: '1.0.0' });
  const protocolErrors: Error[] = [];
  client.onerror = (err) => protocolErrors.push(err);
  await client.connect(transport);
  const said: string[] = [];
  return {
    client,
    said,
    protocolErrors,
    stderr: () => Buffer.concat(errChunks).toString('utf8'),
    async call(name, args, opts = {}) {
      const result = (await client.callTool({ name, arguments: args }, CallToolResultSchema, { onprogress: opts.onprogress, timeout: opts.timeoutMs ?? 60_000, resetTimeoutOnProgress: true })) as CallToolResult;
      said.push(JSON.stringify(result));
      return result;
    },
    async close() {
      await client.close();
      config.cleanup();
    },
  };
}

/** A session for the test file (started after the servers the file's earlier hooks start), closed after it. */
export function useMcp(env: () => Record<string, string>): () => McpSession {
  let session: McpSession | undefined;
  beforeAll(async () => {
    session = await startMcp(env());
  });
  afterAll(async () => {
    await session?.close();
  });
  return () => session!;
}

export function structured(result: CallToolResult): Record<string, any> {
  return (result.structuredContent ?? {}) as Record<string, any>;
}

export function text(result: CallToolResult): string {
  return result.content.filter((c) => c.type === 'text').map((c) => (c as { text: string }).text).join('\n');
}
