// Node's built-in modules come with code compiled as Node was built, which V8 takes only under the
// flags it was made with. wes sets V8 flags of its own as it starts (v8-flags.ts), so a built-in
// module first loaded after them is compiled from source: `jobs submit` compiled 27 that way
// (node:crypto and its parts for the idempotency key, node:fs/promises and its), 15 ms of its
// ~190. The modules every command needs are loaded before the flags (START_BUILTINS in cli.ts and
// scripts/build-sea.mjs); those of one command are learnt: a run notes, beside the code cache, the
// public built-in modules it loaded after the flags, and the command's later runs load them before.
// Best effort, private and per build, like the code cache: a note that cannot be read or written
// costs the compile, never the command.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { folderState, writePrivate } from './code-cache.js';
import { setV8Flags } from './v8-flags.js';

/** The file in the code cache's folder: { command: ['node:crypto', ...] }. */
const NOTE = 'builtins.json';
/** Commands the note keeps, and modules per command: past them, nothing more is noted. */
const COMMANDS_KEPT = 64;
const MODULES_KEPT = 32;

type Note = Record<string, string[]>;

/**
 * What every wes process does before its own code compiles, in the order V8's code caches need:
 * the built-in modules `builtins` (those every command loads) and those `command` loaded after the
 * flags in earlier runs; wes's V8 flags (v8-flags.ts); then wes's own code cache in `cacheDir`
 * (`useCodeCache`), whose first save makes the folder this run's note goes into. The npm build's
 * entry (cli.ts) and the single executable's loader (sea-loader.ts) both start so.
 */
export function startUnderV8Flags(builtins: readonly string[], cacheDir: string | undefined, command: string, useCodeCache: (dir: string) => void): void {
  for (const name of builtins) process.getBuiltinModule(name);
  const learnt = cacheDir === undefined ? undefined : loadCommandBuiltins(cacheDir, command);
  setV8Flags();
  if (cacheDir === undefined) return;
  useCodeCache(cacheDir);
  learnt!.noteAtExit();
}

/** What a run notes at exit (noteAtExit): the built-in modules it loaded after the flags. */
interface BuiltinsLearnt {
  /** At exit, after the code cache has been saved (its first save makes the folder), notes the modules loaded from now on. */
  noteAtExit(): void;
}

/**
 * Loads the built-in modules `command` loaded after the flags in its earlier runs (noted in the
 * folder `dir`). Called just before the flags are set, and noteAtExit once the code cache is in use.
 */
function loadCommandBuiltins(dir: string, command: string): BuiltinsLearnt {
  const note = folderState(dir) === 'private' ? readNote(join(dir, NOTE)) : {};
  const known = note[command] ?? [];
  // Noted in the order they finished loading, a module after those it loads: loaded first in turn.
  for (let i = known.length - 1; i >= 0; i--) process.getBuiltinModule(known[i]!);
  const loadList = (process as unknown as { moduleLoadList?: string[] }).moduleLoadList ?? [];
  const mark = loadList.length;
  return {
    noteAtExit: () =>
      process.once('exit', () => {
        const later = newPublicBuiltins(loadList.slice(mark)).filter((name) => !known.includes(name));
        if (later.length === 0 || folderState(dir) !== 'private') return;
        try {
          const current = readNote(join(dir, NOTE));
          if (!(command in current) && Object.keys(current).length >= COMMANDS_KEPT) return;
          current[command] = [...new Set([...(current[command] ?? []), ...later])].slice(0, MODULES_KEPT);
          writePrivate(join(dir, NOTE), Buffer.from(JSON.stringify(current)));
        } catch {
          // A read-only or full disk: the next run compiles them from source again.
        }
      }),
  };
}

/**
 * 'node:x' for each public built-in module in Node's load list entries ('NativeModule x'), in the
 * order they finished loading. Not Node's internal ones, nor the old `_x` modules, which other
 * modules load as their parts: `_tls_wrap` loaded before `tls`, which it requires and which
 * requires it, leaves node:tls without its TLSSocket (every TLS connection then drops).
 */
function newPublicBuiltins(entries: string[]): string[] {
  const names: string[] = [];
  for (const entry of entries) {
    if (!entry.startsWith('NativeModule ')) continue;
    const name = entry.slice('NativeModule '.length);
    if (!name.startsWith('internal/') && !name.startsWith('_') && isBuiltinModule(name)) names.push(`node:${name}`);
  }
  return names;
}

/** Loaded when asked (`wes --version` needs none of this). */
const isBuiltinModule = (name: string): boolean => process.getBuiltinModule('node:module').isBuiltin(name);

/** The note, or an empty one when it is missing, damaged or not of this shape. */
function readNote(file: string): Note {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    const note: Note = {};
    for (const [command, names] of Object.entries(parsed)) {
      if (Array.isArray(names) && names.every((n) => typeof n === 'string' && n.startsWith('node:') && !n.startsWith('node:_') && isBuiltinModule(n))) note[command] = names as string[];
    }
    return note;
  } catch {
    return {};
  }
}
