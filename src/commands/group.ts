// A command group: the folder under src/commands that holds its verbs, as scripts/command-manifest.mjs
// reads it. The group's own command (`wes jobs`) with its help, the order its verbs are listed in,
// and the explainers it adds to every command's error path (what it knows about an error that the
// error alone does not say).
import type { Factory } from '../factory.js';

/** Turns an error into a better one to report (or gives it back unchanged). */
export type ErrorExplainer = (f: Factory, err: unknown) => Promise<unknown>;

export interface GroupSpec {
  /** The group's own command (`jobs`), or none when its verbs stand at the top (`doctor`). */
  command?: {
    name: string;
    summary: string;
    /** The heading it is listed under in `wes --help`. */
    group: string;
    after?: readonly string[];
  };
  /** Its verb modules (file names in its folder, without .ts), in the order help lists them. */
  verbs: readonly string[];
  /** Modules in its folder (without .ts) whose `explain` every command's error path asks, in order. */
  explainers?: readonly string[];
}

export function defineGroup(spec: GroupSpec): GroupSpec {
  return spec;
}
