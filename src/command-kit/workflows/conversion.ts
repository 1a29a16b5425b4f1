// Converting a UI-format workflow for a command (a verb or an MCP tool): the API format, or exit 2 with every problem as
// one table row (node, class, what), the way the server lists a refused workflow's node errors.
import type { Factory } from '../../factory.js';
import { ExitCode, WesError } from '../../errors.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { convertUiWorkflow, type ApiWorkflow, type NodeProblem } from '../../workflows/convert.js';
import { loadObjectInfo, type LoadedObjectInfo, type ObjectInfoOptions } from './object-info.js';

/** Problems in the engine's node_errors shape, so the error renderer prints them as a table. */
export function asNodeErrors(problems: { node: string; classType: string; type: string; message: string; details?: string }[]): Record<string, unknown> {
  const out = Object.create(null) as Record<string, { class_type: string; errors: { type: string; message: string; details: string }[] }>;
  for (const p of problems) {
    const entry = (out[p.node] ??= { class_type: p.classType, errors: [] });
    entry.errors.push({ type: p.type, message: p.message, details: p.details ?? '' });
  }
  return out;
}

export function conversionError(source: string, problems: NodeProblem[], loaded: Pick<LoadedObjectInfo, 'cachedAt' | 'fromFile'>): WesError {
  const unknown = problems.some((p) => p.what.startsWith('unknown node class'));
  // Never the way already taken: a saved file is not pointed to again, nor the cache refreshed when it was not used.
  const hint = unknown && loaded.cachedAt
    ? `the node definitions were cached at ${loaded.cachedAt}; add --refresh to fetch them again, or install the missing node packs on the server`
    : unknown && loaded.fromFile
      ? 'the saved definitions lack those classes: install the missing node packs on the server and save its object_info again, or convert against the server itself (without --object-info)'
      : unknown
        ? 'install the missing node packs on the server, or convert against a saved object_info with --object-info FILE'
        : 'fix the nodes above in the editor, or export the workflow there with "Export (API)"';
  return new WesError(`${source} cannot be converted exactly: ${problems.length} problem(s)`, {
    exitCode: ExitCode.USAGE,
    code: 'workflow_conversion',
    hint,
    details: { node_errors: asNodeErrors(problems.map((p) => ({ node: p.node, classType: p.classType, type: 'conversion', message: p.what }))) },
  });
}

/** What the conversion kept as saved although the editor would have changed it, on stderr. */
export function warnNotes(f: Factory, notes: string[]): void {
  for (const note of notes) f.io.notice(sanitizeLine(`note: ${note}`));
}

/** Converts `ui` with the node definitions `opts` names; notes on what the editor would have changed go to stderr. */
export async function convertForCommand(f: Factory, ui: Record<string, unknown>, source: string, opts: ObjectInfoOptions): Promise<ApiWorkflow> {
  const loaded = await loadObjectInfo(f, opts);
  const result = convertUiWorkflow(ui, loaded.info);
  if (result.problems.length) throw conversionError(source, result.problems, loaded);
  warnNotes(f, result.notes);
  f.io.info(sanitizeLine(`converted ${source} from the UI format: ${Object.keys(result.workflow).length} node(s), definitions from ${loaded.origin}`));
  return result.workflow;
}

