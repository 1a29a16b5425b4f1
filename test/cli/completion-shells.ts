// Drives the generated completion scripts in real shells: bash through COMP_WORDS/COMP_CWORD and
// the completion function, zsh with the completion builtins replaced by printers, fish through
// `complete -C`. A `wes` on PATH runs the built binary, for dynamic values.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { childProcessEnv, WES_BIN } from '../helpers/cli.js';

export const COMPLETIONS_DIR = resolve(import.meta.dirname, '../../completions');

export function hasShell(shell: string): boolean {
  return spawnSync(shell, ['-c', 'exit 0'], { stdio: 'ignore' }).status === 0;
}

export interface ShellEnv {
  /** Folder with a `wes` that runs the built binary. */
  binDir: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
  cleanup(): void;
}

export function shellEnv(configDir: string, cwd: string): ShellEnv {
  const binDir = mkdtempSync(join(tmpdir(), 'wes-bin-'));
  const shim = join(binDir, 'wes');
  writeFileSync(shim, `#!/bin/sh\nexec '${process.execPath}' '${WES_BIN}' "$@"\n`);
  chmodSync(shim, 0o755);
  const env = { ...childProcessEnv(), PATH: `${binDir}:${process.env.PATH}`, WES_CONFIG_DIR: configDir, HOME: cwd, XDG_CONFIG_HOME: join(cwd, '.config') };
  return { binDir, env, cwd, cleanup: () => rmSync(binDir, { recursive: true, force: true }) };
}

/** COMPREPLY after completing the last word of `words` (words[0] is "wes"). */
export function bashComplete(script: string, words: string[], sh: ShellEnv): string[] {
  const driver = 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _wes; printf "%s\\n" "${COMPREPLY[@]}"';
  const out = execFileSync('bash', ['--norc', '--noprofile', '-c', driver, 'bash', script, ...words], { env: sh.env, cwd: sh.cwd, encoding: 'utf8' });
  return out.split('\n').filter(Boolean);
}

/**
 * COMPREPLY for each of `cases` (words as bashComplete takes them), from one bash that sources the
 * script once: one shell instead of one per case, as the every-command tests complete some hundred
 * lines. Each case starts from fresh COMP_WORDS, COMP_CWORD and COMPREPLY, and the shell must end
 * with the variables, functions and options it had after sourcing: so no case saw what another
 * left behind, and a completion that leaks a global fails here (a subshell per case, two forks
 * with the completion's own, hid such a leak and cost about 8 ms of CPU a case).
 */
export function bashCompleteEach(script: string, cases: string[][], sh: ShellEnv): string[][] {
  const END = '@@wes-complete-end@@';
  const driver = [
    'source "$1"; shift',
    'n=0 COMP_WORDS=() COMP_CWORD=0 COMPREPLY=() before=\'\' after=\'\'',
    'state() { compgen -v; compgen -A function; shopt -p; set +o; }',
    'before=$(state)',
    'while (( $# )); do',
    '  n=$1; shift',
    '  COMP_WORDS=("${@:1:n}"); COMP_CWORD=$((n - 1)); COMPREPLY=(); _wes; printf "%s\\n" "${COMPREPLY[@]}"',
    `  shift "$n"; echo ${END}`,
    'done',
    'after=$(state)',
    '[[ $after == "$before" ]] || { diff <(echo "$before") <(echo "$after") >&2; echo "the completion left state behind" >&2; exit 9; }',
  ].join('\n');
  const args = cases.flatMap((words) => [String(words.length), ...words]);
  const out = execFileSync('bash', ['--norc', '--noprofile', '-c', driver, 'bash', script, ...args], { env: sh.env, cwd: sh.cwd, encoding: 'utf8' });
  const replies = out.split(`${END}\n`);
  if (replies.pop() !== '' || replies.length !== cases.length) throw new Error(`bash completed ${replies.length} of ${cases.length} cases:\n${out}`);
  return replies.map((reply) => reply.split('\n').filter(Boolean));
}

/** Candidates zsh would offer: `_describe`, `compadd` and `_files` print instead of adding. */
export function zshComplete(script: string, words: string[], sh: ShellEnv): string[] {
  const driver = [
    'autoload -U compinit && compinit -u -D',
    'source "$1" || exit 9',
    'shift',
    '_describe() { local n=${@[-1]}; print -rl -- "${(@P)n%%:*}" }',
    'compadd() { [[ $1 == -- ]] && shift; print -rl -- "$@" }',
    '_files() { print -r -- "<files $*>" }',
    'compset() { : }',
    'words=("$@"); CURRENT=$#; _wes',
  ].join('\n');
  const out = execFileSync('zsh', ['-f', '-c', driver, 'zsh', script, ...words], { env: sh.env, cwd: sh.cwd, encoding: 'utf8' });
  return out.split('\n').filter(Boolean);
}

/** fish's own answer for a command line (candidates without their descriptions). */
export function fishComplete(script: string, line: string, sh: ShellEnv): string[] {
  const out = execFileSync('fish', ['--no-config', '-c', 'source $argv[1]; complete -C $argv[2]', script, line], { env: sh.env, cwd: sh.cwd, encoding: 'utf8' });
  return out.split('\n').filter(Boolean).map((l) => l.split('\t')[0]!);
}
