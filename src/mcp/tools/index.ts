// Every tool `wes mcp` offers, in the order tools/list gives them.
import { JOB_TOOLS } from './jobs.js';
import { FILE_TOOLS } from './files.js';
import { MODEL_TOOLS } from './models.js';
import { WORKFLOW_TOOLS } from './workflows.js';
import { ENGINE_TOOLS } from './engine.js';
import type { Tool } from '../tool.js';

export const TOOLS: readonly Tool[] = [...JOB_TOOLS, ...FILE_TOOLS, ...MODEL_TOOLS, ...WORKFLOW_TOOLS, ...ENGINE_TOOLS];

/** The tools as tools/list gives them (and `wes mcp --list-tools` prints them, without loading the SDK). */
export function listedTools(tools: readonly Tool[] = TOOLS) {
  return tools.map((t) => ({ name: t.name, title: t.annotations.title, description: t.description, inputSchema: t.inputSchema, annotations: t.annotations }));
}
