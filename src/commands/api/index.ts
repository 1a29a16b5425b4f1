import type { Command } from 'commander';
import type { ActionFactory } from '../types.js';
import { typedCommand } from '../typed-options.js';
import { apiOptions, apiRules } from './options.js';

export function registerApi(program: Command, action: ActionFactory): void {
  const api = program.command('api <method> <path>').description('Send an authenticated request to any path of any API family and print the answer as received');
  typedCommand(api, apiOptions(), action, () => import('./run.js'), apiRules)
    .helpGroup('Setup and tools:')
    .addHelpText(
      'after',
      `
The API family follows from the path: /api/v2/... is jobs, the job API (Authorization: Bearer API
key), /v1/... and /v2/models/... models, the model router (Bearer router token), any other
/api/... legacy, the cloud API v1 (X-API-Key).
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
    );
}
