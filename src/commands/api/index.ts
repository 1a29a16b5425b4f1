import { Option, type Command } from 'commander';
import type { ActionFactory } from '../types.js';
import { API_FAMILIES } from '../../protocol/api-families.js';
import { familyAlias } from './target.js';

const collect = (value: string, previous: string[]): string[] => [...previous, value];

/** --surface jobs|models|legacy; the old name `router` still means models. */
function familyOption(): Option {
  const option = new Option('--surface <family>', 'the API family whose base URL and credential to use (default: from the path)').choices(API_FAMILIES);
  const strict = option.parseArg!;
  return option.argParser((value: string, previous: unknown) => strict(familyAlias(value), previous));
}

export function registerApi(program: Command, action: ActionFactory): void {
  program
    .command('api <method> <path>')
    .description('Send an authenticated request to any path of any API family and print the answer as received')
    .helpGroup('Setup and tools:')
    .addOption(familyOption())
    .option('-f, --raw-field <key=value>', 'a string parameter (repeatable; key[]=v appends to an array)', collect, [])
    .option('-F, --field <key=value>', 'a typed parameter: JSON when it parses (5, true, null, {...}), @FILE reads a file (repeatable)', collect, [])
    .option('-H, --header <header>', 'an extra request header "Name: value" (repeatable)', collect, [])
    .option('--input <file>', 'the request body from a file, or - for standard input (fields then go to the query)')
    .option('-i, --include', 'print the status line and response headers before the body')
    .option('--paginate', 'follow router pages (next_cursor while has_more) and print every page\'s data as one JSON array')
    .addHelpText(
      'after',
      `
The API family follows from the path: /api/v2/... is jobs, the job API (Authorization: Bearer API
key), /v1/... models, the model router (Bearer router token), any other /api/... legacy, the cloud
API v1 (X-API-Key).
Paths are appended to the configured base URL; a full URL is accepted only on a configured
origin. Fields go to the query string for GET and HEAD, else into a JSON body. The configured
credential wins over a -H with the same name; an Idempotency-Key header makes a POST retryable.
Redirects are not followed (--include shows the Location).

Output: the body exactly as received when piped; on a terminal JSON is indented and control
characters are removed. An HTTP error still prints its body, then exits by \`wes help exit-codes\`.

Examples:
  $ wes api GET /api/v2/jobs/$JOB_ID --include
  $ wes api GET /v1/models -F limit=100 --paginate | jq -r '.[].id'
  $ wes api POST /api/prompt --input workflow-body.json`,
    )
    .action(action(() => import('./run.js')));
}
