// The MCP server behind `wes mcp`: the official SDK's stdio transport on wes's own standard input
// and output, the tools of tools/index.ts, each call run on a Factory of its own (its signal: the
// client's cancellation and wes's Ctrl-C). The low-level Server is used because the tools declare
// plain JSON Schemas (what the client lists), checked here with ajv, so that a bad argument is a
// result with wes's error code and hint like any other failure.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Factory } from '../factory.js';
import type { Settings } from '../config/settings.js';
import type { NoticeLevel } from '../features/reporter.js';
import type { IOStreams } from '../render/io.js';
import { VERSION } from '../factory-version.js';
import { UsageError, type InterruptedError } from '../errors.js';
import { explained } from './explain.js';
import { sanitizeLine } from '../util/sanitize.js';
import { errorResult, successResult } from './result.js';
import { InputChecker } from './input.js';
import { listedTools, TOOLS } from './tools/index.js';
import type { ToolCall } from './tool.js';
import { systemClock, type Clock } from '../util/clock.js';

export interface McpServing {
  /** The command's IO: the protocol on its stdin and stdout, logs on its stderr. */
  io: IOStreams;
  /** Ctrl-C or SIGTERM of `wes mcp`: the server closes. */
  signal: AbortSignal;
  settings(): Settings;
  /** A Factory for one tool call, on `signal`; disposed when the call ends. */
  openCall(signal: AbortSignal): Promise<Factory>;
  /** The time the gap after a call's last progress notification is measured and waited on (default: the system's). */
  clock?: Clock;
}

/** The credentials of the profile, never to appear in a result (settings that do not resolve have none to leak). */
function secretsOf(s: McpServing): string[] {
  try {
    const { apiKey, routerToken, partnerKey, partnerToken } = s.settings();
    return [apiKey, routerToken, partnerKey, partnerToken].filter((v): v is string => typeof v === 'string');
  } catch {
    return [];
  }
}

function logLine(io: IOStreams, level: NoticeLevel, line: string): void {
  if (level === 'debug' && !io.verbose) return;
  if (level === 'info' && io.quiet) return;
  io.stderr.write(`wes mcp: ${sanitizeLine(line)}\n`);
}

async function runTool(s: McpServing, checker: InputChecker, name: string, args: Record<string, unknown> | undefined, signal: AbortSignal, progress: ToolCall['progress']): Promise<CallToolResult> {
  const secrets = secretsOf(s);
  const tool = TOOLS.find((t) => t.name === name);
  if (!tool) return errorResult(new UsageError(`no tool ${JSON.stringify(name)}`, `the tools are: ${TOOLS.map((t) => t.name).join(', ')}`), secrets);
  let f: Factory | undefined;
  const more: Factory[] = [];
  try {
    const checked = checker.check(tool, args);
    f = await s.openCall(signal);
    const open = async (own: AbortSignal) => {
      const opened = await s.openCall(AbortSignal.any([signal, own]));
      more.push(opened);
      return opened;
    };
    const call: ToolCall = { f, progress, open, log: (level, line) => logLine(s.io, level, `${name}: ${line}`) };
    call.log('debug', 'called');
    return successResult(await tool.run(call, checked), secrets);
  } catch (err) {
    const said = f ? await explained(f, err) : err;
    logLine(s.io, 'info', `${name}: failed: ${(said as Error).message ?? String(said)}`);
    return errorResult(said, secrets);
  } finally {
    await Promise.all([f, ...more].map((opened) => opened?.dispose().catch(() => undefined)));
  }
}

/** Serves until the client closes standard input (or Ctrl-C); resolves to the exit code. */
/** How long a call's result waits after its last progress notification (see the handler). */
const NOTIFICATION_GAP_MS = 50;

export async function serveMcp(s: McpServing): Promise<number> {
  const clock = s.clock ?? systemClock;
  const server = new Server({ name: 'wes', version: VERSION }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  const checker = new InputChecker();
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listedTools() }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const token = request.params._meta?.progressToken;
    let last = 0;
    // A progress notification written after the call's result names a token the client has
    // already forgotten (its SDK reports it as a protocol error): each is awaited before the
    // result goes out, and none is sent once the tool has ended.
    let sent: Promise<unknown> = Promise.resolve();
    let sentAt = 0;
    let ended = false;
    const progress: ToolCall['progress'] = (fraction, message) => {
      if (token === undefined || ended) return;
      // MCP wants each notification's progress above the one before: the fraction in percent, nudged up when it stands still.
      const next = Math.max(fraction === undefined ? 0 : fraction * 100, last + 0.01);
      last = next;
      const notification = extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: Number(next.toFixed(2)), ...(next <= 100 ? { total: 100 } : {}), message: sanitizeLine(message) } }).catch(() => undefined);
      sent = Promise.all([sent, notification]);
      sentAt = clock.now();
    };
    try {
      return await runTool(s, checker, request.params.name, request.params.arguments, AbortSignal.any([s.signal, extra.signal]), progress);
    } finally {
      ended = true;
      await sent;
      // The SDK's client handles a notification a microtask after reading it, and a response read
      // in the same chunk forgets the token first: the result leaves a moment after the last one.
      const since = clock.now() - sentAt;
      if (since < NOTIFICATION_GAP_MS) await clock.sleep(NOTIFICATION_GAP_MS - since);
    }
  });
  const transport = new StdioServerTransport(s.io.stdin, s.io.stdout);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    s.signal.addEventListener('abort', () => void server.close(), { once: true });
  });
  server.onerror = (err) => logLine(s.io, 'warn', `protocol: ${err.message}`);
  await server.connect(transport);
  // The SDK's stdio transport does not see standard input end: the client going away ends the server.
  s.io.stdin.once('end', () => void server.close());
  logLine(s.io, 'info', `serving ${TOOLS.length} tools on stdio (wes ${VERSION})`);
  await closed;
  // Standard input is not read any more; a pipe left open would keep the process alive.
  s.io.stdin.destroy();
  // Ctrl-C or SIGTERM: said as every interruption is (exit 130 or 143); jobs submitted go on on the service.
  if (s.signal.aborted) throw (s.signal.reason as InterruptedError).tell?.('jobs submitted through it keep running on the service') ?? s.signal.reason;
  return 0;
}

const INSTRUCTIONS = `wes runs node-graph workflows on a workflow execution service (job API v2) and calls partner AI models through its model router.
Typical use: submit_job (a workflow graph or file, inputs as {"NODE.INPUT": value}) with wait=true, or then wait_job; download_outputs saves the outputs (verified by hash) and shows small images.
A submit whose answer was lost is never sent twice: it is looked up by its Idempotency-Key and reported found or in doubt (error code in_doubt: do not resubmit; look again with get_job or list_jobs).
Failures are results with isError, wes's error code, exit code and a hint saying what to do.`;
