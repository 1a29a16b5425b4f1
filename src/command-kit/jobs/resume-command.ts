// The command that redoes what a waiting command was asked when Ctrl-C or --timeout stops it while
// the job goes on (the same verb, the same job, the same follow and download flags, the same
// profile and base URL flags); src/features/jobs/follow.ts says it, in one form for every command.
import type { Factory } from '../../factory.js';
import { shellWord } from '../../util/shell-word.js';
import { withoutPassword } from '../../config/keys.js';

/** The follow and download flags of a waiting command, as its typed options hold them. */
export interface ResumedFlags {
  interval?: number;
  events?: boolean;
  cancelOnInterrupt?: boolean;
  preview?: boolean;
  download?: string;
  clobber?: boolean;
  skipExisting?: boolean;
}

/** The flags of a follow that a resumed one must repeat. */
export function followFlagWords(opts: ResumedFlags): string[] {
  const words: string[] = [];
  if (opts.interval !== undefined) words.push('--interval', String(opts.interval));
  if (opts.events === false) words.push('--no-events');
  if (opts.cancelOnInterrupt) words.push('--cancel-on-interrupt');
  if (opts.preview) words.push('--preview');
  if (opts.download !== undefined) words.push('--download', opts.download);
  if (opts.clobber) words.push('--clobber');
  if (opts.skipExisting) words.push('--skip-existing');
  return words;
}

/** The global flags that choose where the job is (never a credential) and how output is written. */
function globalWords(f: Factory): string[] {
  const g = f.globals;
  const words: string[] = [];
  if (g.profile !== undefined) words.push('--profile', g.profile);
  if (g.baseUrl !== undefined) words.push('--base-url', withoutPassword(g.baseUrl));
  if (g.deployment !== undefined) words.push('--deployment', g.deployment);
  if (g.jq !== undefined) words.push('--jq', g.jq);
  else if (g.json) words.push('--json');
  return words;
}

/** `wes [globals] jobs VERB ID [flags]`, quoted for a shell. */
export function resumeCommand(f: Factory, verb: string[], id: string, flags: string[]): string {
  return ['wes', ...globalWords(f), 'jobs', ...verb.slice(0, 1), id, ...verb.slice(1), ...flags].map(shellWord).join(' ');
}
