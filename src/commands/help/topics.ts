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
    '  WES_PROFILE        --profile        the profile to use (default "default"; a name that is not stored is refused)',
    '  WES_CONFIG_DIR                      folder of the profile file (default: the per-user config folder)',
    ...rows,
    '  WES_MAX_ANSWER_MIB --max-answer-mib largest answer wes holds in memory, in MiB (default 64): a JSON answer,',
    '                                      an error body or a v1 WebSocket message past it stops the command (exit 1);',
    '                                      downloads stream to disk and are not limited',
    '',
    `The base URL defaults to ${DEFAULT_BASE_URL} (where \`wes dev-server\` listens); the router URL and`,
    'router credential default to the base URL and the API key. A literal {deployment} in a base URL is',
    'replaced by the deployment id. `wes config list` shows what is in effect and where it comes from.',
    '',
    'Network:',
    '  HTTPS_PROXY        the proxy for https:// (and wss://) requests, http://[USER:PASSWORD@]HOST:PORT',
    '  HTTP_PROXY         the proxy for http:// (and ws://) requests; lower-case names are read first',
    '  NO_PROXY           hosts reached directly: host, .domain, *.domain, host:port, 10.0.0.0/8, or *',
    '  WES_PROXY_LOOPBACK =1 sends loopback (localhost, 127.0.0.0/8, ::1) through the proxy too (default: never)',
    '  NODE_EXTRA_CA_CERTS a PEM file of certificate authorities to trust besides Node\'s own (a private CA,',
    '                     or a company proxy that inspects TLS); read by Node as it starts',
    '',
    'Files and state:',
    '  WES_STATE_DIR      the job history (`wes jobs list`, @last); default state/ in WES_CONFIG_DIR when',
    '                     that is set, else $XDG_STATE_HOME/wes (~/.local/state/wes)',
    '  WES_CODE_CACHE=0   turns off the code cache (V8\'s compiled code of what wes runs, kept in code-cache/',
    '                     inside WES_CONFIG_DIR, else in $XDG_CACHE_HOME/wes, so later runs start sooner)',
    '  WES_BLAKE3         wasm hashes with the WebAssembly blake3 instead of the native one',
    '  WES_PART_THREAD    1 writes and hashes every download from an http:// URL on a thread of its own,',
    '                     0 never; default: a download of 32 MiB or more, on a machine with 4 cores or more',
    '',
    'Output:',
    '  NO_COLOR, CLICOLOR=0 turn colour off; CLICOLOR_FORCE=1 forces it; spinners appear only when stderr',
    '  is a terminal (and not under CI).',
    '  WES_PICTURES       kitty, iterm or sixel forces that picture protocol (--show, --preview); off turns',
    '                     pictures off; default: found from the terminal',
    '',
    'Dev server: WES_DEV_API_KEY is the key `wes dev-server` accepts on its cloud deployment.',
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
    '  --jq EXPR (any command; implies --json) filters that JSON with jq 1.8: strings print raw,',
    '  one result a line; a stream is filtered line by line. An expression that does not compile',
    '  is exit 2 before any request; one that fails while running is exit 1.',
    '  On failure with --json, stderr holds {"error":{"code","message","status","request_id","details"}};',
    '  Ctrl-C gives code "interrupted" there, with the command that goes on in details.resume.',
    '  Without --json, tables are aligned on a terminal and tab-separated (no header) when piped.',
    '',
    'JSON shapes (--json) besides the service\'s own objects:',
    '  jobs submit --wait, jobs watch   NDJSON of Job snapshots, one per change, the last one final',
    '  jobs download                    [{name, path, bytes, hash, verified, asset_id}]',
    '  jobs list                        [{id, status, submitted_at, seen_at, source}]',
    '  jobs logs                        {job_id, log, reason}',
    '  jobs submit --batch              NDJSON, one result per input line:',
    '                                   {index, job_id, status, outputs, error, idempotency_key, endpoint}',
    '  config list                      {profile, settings: [{key, value, source, effective}]}',
    '  config get                       {key, value}',
    '  profiles list                    [{name, active, base_url, has_api_key}]',
    '  auth status                      {profile, profile_source, config_path, base_url, router_url,',
    '                                    values, surfaces: [{family, surface, url, verdict, status, message}]}',
    '  help exit-codes                  [{code, meaning}]',
    '  version                          {version, node, platform, blake3}',
    '',
    'Recipes:',
    '  id=$(wes jobs submit flow.json --jq .id)',
    '  wes jobs get "$id" --jq \'.outputs[] | "\\(.name) \\(.size_bytes)"\'',
    '  wes jobs watch "$id" --json | jq -c \'{status, p: .progress.value}\'',
    '  wes models list --all --jq \'.[].id\'',
    '  wes jobs watch "$id"; case $? in 0) echo ok;; 3) echo failed;; 10) echo canceled;; esac',
  ].join('\n');
}
