// What an MCP tool of wes is: its name, what an agent reads to choose it, the JSON Schema of its
// input (checked before it runs), its annotations, and the use case it runs on a call's own
// Factory. A tool returns a structured result and a line for people; it never prints.
import type { Factory } from '../factory.js';
import type { NoticeLevel } from '../features/reporter.js';

/** A JSON Schema (draft 2020-12 subset) as MCP carries it. */
export type JsonSchema = Record<string, unknown>;

export interface ToolAnnotations {
  title: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** One call of a tool: its Factory (signal, settings, clients), progress toward the client, logs to stderr. */
export interface ToolCall {
  readonly f: Factory;
  /** An MCP progress notification, when the client asked for them (a progress token); otherwise nothing. */
  progress(fraction: number | undefined, message: string): void;
  log(level: NoticeLevel, line: string): void;
  /** A Factory like `f` on another signal (a wait's own deadline), disposed with the call. */
  open(signal: AbortSignal): Promise<Factory>;
}

export interface ToolImage {
  data: Buffer;
  mimeType: string;
}

export interface ToolOutput {
  /** The result as an object (MCP's structuredContent); its text form goes in the content too. */
  structured: Record<string, unknown>;
  /** One line for people, first in the text content. */
  summary: string;
  /** Pictures the agent can look at. */
  images?: ToolImage[];
}

export interface Tool<A = Record<string, unknown>> {
  name: string;
  description: string;
  inputSchema: JsonSchema & { type: 'object' };
  annotations: ToolAnnotations;
  run(call: ToolCall, args: A): Promise<ToolOutput>;
}

/** A tool, its arguments typed by the caller (they are checked against inputSchema before run). */
export function defineTool<A>(tool: Tool<A>): Tool {
  return tool as unknown as Tool;
}

/** A string property of an input schema. */
export function str(description: string, more: JsonSchema = {}): JsonSchema {
  return { type: 'string', description, ...more };
}
