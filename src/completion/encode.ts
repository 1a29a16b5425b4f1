// The completion model flattened into the small tables every shell script carries: one code per
// kind of value, and the lookups (subcommands of a path, option values, argument values) as
// lists of pattern/answer pairs that each shell writes in its own `case`/`switch` syntax.
import { optionsInScope, type CompletionSpec, type OptionSpec, type ValueSpec } from './spec.js';

/** c:<choices separated by spaces> | p (profiles) | k:<kind> (`wes __complete <kind>`) | f (files) | d (folders) | t (free text). */
export function valueCode(v: ValueSpec): string {
  switch (v.kind) {
    case 'choices':
      return `c:${v.choices.join(' ')}`;
    case 'profiles':
      return 'p';
    case 'dynamic':
      return `k:${v.source}`;
    case 'file':
      return 'f';
    case 'dir':
      return 'd';
    case 'text':
      return 't';
  }
}

export interface Row {
  key: string;
  value: string;
}

/** path -> subcommand names (space separated), for every command that has subcommands. */
export function subcommandRows(spec: CompletionSpec): Row[] {
  return spec.commands.filter((c) => c.subcommands.length).map((c) => ({ key: c.path, value: c.subcommands.map((s) => s.name).join(' ') }));
}

/** Options in scope at a command besides the root's (which every script lists once, as globals). */
function ownOptions(spec: CompletionSpec, path: string): OptionSpec[] {
  return path === '' ? spec.root.options : optionsInScope(spec, path).filter((o) => !spec.root.options.includes(o));
}

/** path -> option names (space separated): the root's are the globals, the others' only their own. */
export function optionRows(spec: CompletionSpec): Row[] {
  return spec.commands.map((c) => ({ key: c.path, value: ownOptions(spec, c.path).flatMap((o) => o.names).join(' ') })).filter((r) => r.value);
}

/**
 * "path|option" -> value code, for options that take a value. Options declared on a group are
 * written once per command below it, so a lookup is one exact match.
 */
export function optionValueRows(spec: CompletionSpec): Row[] {
  const rows: Row[] = [];
  const globals = spec.root.options.filter((o) => o.value);
  for (const o of globals) for (const n of o.names) rows.push({ key: `*|${n}`, value: valueCode(o.value!) });
  for (const c of spec.commands) {
    if (c.path === '') continue;
    for (const o of optionsInScope(spec, c.path)) {
      if (!o.value || spec.root.options.includes(o)) continue;
      for (const n of o.names) rows.push({ key: `${c.path}|${n}`, value: valueCode(o.value) });
    }
  }
  // Exact rows first: the shells take the first matching pattern.
  return [...rows.filter((r) => !r.key.startsWith('*')), ...rows.filter((r) => r.key.startsWith('*'))];
}

/**
 * "path|index" -> value code of the positional argument at that index; a variadic last argument
 * answers for every later index too ("path|*", written after the exact rows).
 */
export function argumentRows(spec: CompletionSpec): { exact: Row[]; rest: Row[] } {
  const exact: Row[] = [];
  const rest: Row[] = [];
  for (const c of spec.commands) {
    c.args.forEach((a, i) => {
      if (a.variadic) rest.push({ key: c.path, value: valueCode(a.value) });
      else exact.push({ key: `${c.path}|${i}`, value: valueCode(a.value) });
    });
  }
  return { exact, rest };
}

/** "name:summary" entries for menus that show descriptions (zsh, fish). */
export function describedSubcommands(spec: CompletionSpec): Array<{ key: string; entries: Array<[string, string]> }> {
  return spec.commands.filter((c) => c.subcommands.length).map((c) => ({ key: c.path, entries: c.subcommands.map((s) => [s.name, s.summary] as [string, string]) }));
}

export function describedOptions(spec: CompletionSpec): Array<{ key: string; entries: Array<[string, string]> }> {
  return spec.commands
    .map((c) => ({ key: c.path, entries: ownOptions(spec, c.path).flatMap((o) => o.names.map((n) => [n, o.description] as [string, string])) }))
    .filter((g) => g.entries.length);
}
