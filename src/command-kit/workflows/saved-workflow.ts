// The workflow saved on the server under a name (`--saved NAME`, the MCP jobs tool's `saved`), fetched
// byte for byte and, saved in the editor's UI format, converted with the server's own node definitions
// as `--convert` does (--object-info / --refresh choose them); an API-format one is taken as it is.
import type { Factory } from '../../factory.js';
import { isUiFormat, parseWorkflow, parseWorkflowJson } from '../../workflows/workflow-file.js';
import { savedName } from '../../workflows/saved-name.js';
import { readSaved } from '../../features/workflows/saved.js';
import { convertForCommand } from './conversion.js';
import type { ObjectInfoOptions } from './object-info.js';
import { savedWorkflows } from './saved-client.js';

export interface SavedWorkflow {
  workflow: Record<string, unknown>;
  /** As listed: relative to the workflows folder, with `.json`. */
  name: string;
}

export async function savedWorkflowToRun(f: Factory, name: string, opts: ObjectInfoOptions): Promise<SavedWorkflow> {
  const saved = savedName(name);
  const bytes = await readSaved(savedWorkflows(f), saved);
  const source = `the saved workflow ${JSON.stringify(saved.name)}`;
  const text = bytes.toString('utf8');
  const value = parseWorkflowJson(text, source);
  const workflow = isUiFormat(value) ? await convertForCommand(f, value as Record<string, unknown>, source, opts) : parseWorkflow(text, source);
  return { workflow, name: saved.name };
}
