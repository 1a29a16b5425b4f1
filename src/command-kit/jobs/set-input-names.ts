// `--set NODE.INPUT=VALUE` naming an input the node does not take (a typo such as `1.widht`, or
// `1.image` on an EmptyImage) is sent and silently ignored by the server. The workflow's own
// inputs say which names a node takes; only a name not among them is looked up in the server's
// node definitions (object_info, cached per base URL, so asked at most once). A name the node's
// definition does not list is refused before anything is sent (exit 2), with the input it most
// likely meant: the job would run with that input's old value. Where no definition is known, the
// workflow's own inputs are all there is to go by: the name is warned about and sent (refused with
// --strict).
import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { isRecord, nodeDef, type ObjectInfo } from '../../workflows/node-defs.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { closestName } from '../../util/closest-name.js';
import type { InputAssignment } from '../../features/jobs/inputs.js';

function inputsIn(node: unknown): string[] {
  return isRecord(node) && isRecord(node.inputs) ? Object.keys(node.inputs) : [];
}

/**
 * The server's node definitions, or undefined where it serves none (a job API without
 * /api/object_info). Loaded when a --set is checked: the engine's client and the object_info
 * cache come with them, which a submit without --set never needs.
 */
async function definitions(f: Factory): Promise<{ info: ObjectInfo; origin: string } | undefined> {
  try {
    return await (await import('../workflows/object-info.js')).loadObjectInfo(f, {});
  } catch (err) {
    f.io.debug(`node definitions not read (${(err as Error).message}); checking --set against the workflow's own inputs`);
    return undefined;
  }
}

interface UnknownInput {
  /** What is wrong, in one sentence. */
  said: string;
  /** The node's definition was known: the name is certainly wrong. */
  defined: boolean;
}

/** What is wrong with each assignment to an input its node does not take. */
async function unknownInputs(f: Factory, workflow: Record<string, unknown>, assignments: InputAssignment[]): Promise<UnknownInput[]> {
  const doubtful = assignments.filter((a) => !inputsIn(workflow[a.node]).includes(a.input));
  if (doubtful.length === 0) return [];
  const defs = await definitions(f);
  const problems: UnknownInput[] = [];
  for (const a of doubtful) {
    const node = workflow[a.node] as Record<string, unknown>;
    const classType = typeof node.class_type === 'string' ? node.class_type : undefined;
    const def = defs && classType !== undefined ? nodeDef(defs.info, classType) : undefined;
    const known = def ? def.inputs.map((i) => i.name) : inputsIn(node);
    if (known.includes(a.input)) continue;
    const from = def ? `its definition on ${defs!.origin}` : 'the workflow';
    const meant = closestName(a.input, known);
    const guess = meant ? ` (did you mean \`${meant}\`?)` : '';
    problems.push({
      said: sanitizeLine(`--set ${a.node}.${a.input}: node ${a.node}${classType ? ` (${classType})` : ''} has no input "${a.input}"${guess}; its inputs (from ${from}): ${known.join(', ') || 'none'}`),
      defined: def !== undefined,
    });
  }
  return problems;
}

/** Refuses a --set to an input its node's definition does not list; without a definition warns, or (`strict`) refuses. */
export async function checkInputNames(f: Factory, workflow: Record<string, unknown>, assignments: InputAssignment[], strict: boolean): Promise<void> {
  const problems = await unknownInputs(f, workflow, assignments);
  if (problems.length === 0) return;
  if (problems.some((p) => p.defined)) {
    throw new UsageError(problems.map((p) => p.said).join('\n'), 'nothing was sent: the server ignores an input its node does not take, so the job would run with the old value. Name an input the node takes');
  }
  if (strict) throw new UsageError(problems.map((p) => p.said).join('\n'), 'name an input the node takes; without --strict the value is sent anyway (the server ignores it)');
  const s = f.io.errStyle;
  for (const problem of problems) f.io.warn(`${s.yellow('warning:')} ${problem.said}`);
  f.io.warn(`${s.yellow('hint:')} the server ignores an input its node does not take; --strict refuses to submit instead`);
}
