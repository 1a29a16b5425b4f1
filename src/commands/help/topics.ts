// Help topics: text that belongs to no single command.
import { EXIT_CODE_TABLE } from '../../errors.js';
import { ENV_FOR_KEY, FLAG_FOR_KEY, PROFILE_KEYS, DEFAULT_BASE_URL } from '../../config/keys.js';

export function exitCodesTopic(): string {
  return [
    'Exit codes of wes (stable; scripts may rely on them):',
    '',
    ...EXIT_CODE_TABLE.map(([code, text]) => `  ${String(code).padStart(3)}  ${text}`),
  ].join('\n');
}

export function environmentTopic(): string {
  const rows = PROFILE_KEYS.map((k) => `  ${ENV_FOR_KEY[k].padEnd(18)} ${FLAG_FOR_KEY[k].padEnd(16)} profile key ${k}`);
  return [
    'Every setting resolves in this order: flag, environment variable, the selected profile, default.',
    '',
    '  WES_PROFILE        --profile        the profile to use (default "default")',
    '  WES_CONFIG_DIR                      folder of the profile file (default: the per-user config folder)',
    ...rows,
    '  WES_MAX_ANSWER_MIB --max-answer-mib largest answer wes holds in memory, in MiB (default 64): a JSON answer,',
    '                                      an error body or a v1 WebSocket message past it stops the command (exit 1);',
    '                                      downloads stream to disk and are not limited',
    '',
    `The base URL defaults to ${DEFAULT_BASE_URL} (where \`wes dev-server\` listens); the router URL and`,
    'router credential default to the base URL and the API key. A literal {deployment} in a base URL is',
    'replaced by the deployment id.',
    '',
    'Output: NO_COLOR or CLICOLOR=0 turn colour off, CLICOLOR_FORCE=1 forces it; spinners appear only',
    'when stderr is a terminal.',
    'Dev server: WES_DEV_API_KEY is the key `wes dev-server` accepts on its cloud deployment.',
    'Code cache: wes keeps V8\'s compiled code of what it runs in code-cache/ inside WES_CONFIG_DIR, else',
    'in $XDG_CACHE_HOME/wes (~/.cache/wes), so later runs start sooner; WES_CODE_CACHE=0 turns it off.',
  ].join('\n');
}

export function formattingTopic(): string {
  return [
    'Output rules:',
    '  stdout carries data only; progress, hints and errors go to stderr.',
    '  --json prints exactly one JSON document on stdout: the service\'s own object, unchanged',
    '  (snake_case fields). Streaming commands (jobs watch, legacy watch) print NDJSON: one',
    '  object per line, the last line the final state. `models run` prints the model\'s output',
    '  exactly as the router returned it, with or without --json.',
    '  On failure with --json, stderr holds {"error":{"code","message","status","request_id","details"}}.',
    '  Without --json, tables are aligned on a terminal and tab-separated (no header) when piped.',
    '',
    'Recipes:',
    '  id=$(wes jobs submit flow.json --json | jq -r .id)',
    '  wes jobs get "$id" --json | jq -r \'.outputs[] | "\\(.name) \\(.size_bytes)"\'',
    '  wes jobs watch "$id" --json | jq -c \'{status, p: .progress.value}\'',
    '  wes models list --all --json | jq -r \'.[].id\'',
    '  wes jobs watch "$id"; case $? in 0) echo ok;; 3) echo failed;; 10) echo canceled;; esac',
  ].join('\n');
}
