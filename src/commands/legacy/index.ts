import type { Command } from 'commander';
import type { ActionFactory } from '../types.js';
import { noOptions, typedCommand } from '../typed-options.js';
import {
  legacyListOptions,
  legacyQueueDeleteOptions,
  legacyPromptOptions,
  legacyPromptRules,
  legacyStatusOptions,
  legacyStatusRules,
  legacyUploadOptions,
  legacyUploadRules,
  legacyViewOptions,
  legacyViewRules,
  legacyWatchOptions,
  legacyWatchRules,
} from './options.js';

const DEPRECATED = 'Deprecated cloud API v1, and the API of a self-hosted ComfyUI engine (found by itself: --engine). Where the server has a job API v2 equivalent, each command names it once on stderr (--quiet hides it).';

export function registerLegacy(program: Command, action: ActionFactory): void {
  const legacy = program
    .command('legacy')
    .description('Deprecated cloud API v1: prompts, uploads, status, queue, WebSocket progress')
    .helpGroup('Cloud API v1 (deprecated):')
    .addHelpText('after', `\n${DEPRECATED}`);

  const objectInfo = legacy.command('object-info [class]').description('List node classes, or show one class\'s inputs (--json: object_info as sent)');
  typedCommand(objectInfo, noOptions(), action, () => import('./object-info.js'))
    .addHelpText('after', '\nExamples:\n  $ wes legacy object-info\n  $ wes legacy object-info Sample\n  $ wes legacy object-info --json | jq keys');

  const upload = legacy.command('upload <file>').description('Upload an input image (multipart field `image`); prints the name to use in a LoadImage node');
  typedCommand(upload, legacyUploadOptions(), action, () => import('./upload.js'), legacyUploadRules)
    .addHelpText('after', '\nExamples:\n  $ wes legacy upload cat.png\n  $ wes legacy upload cat-mask.png --mask --original cat.png\n  $ wes legacy upload m.png --mask --original \'{"filename":"cat.png","subfolder":"","type":"input"}\'');

  const prompt = legacy.command('prompt <workflow>').description('Submit an API-format workflow (- reads standard input); prints the prompt id');
  typedCommand(prompt, legacyPromptOptions(), action, () => import('./prompt.js'), legacyPromptRules)
    .addHelpText('after', `
The partner-node key (--partner-key, WES_PARTNER_KEY) goes into extra_data.api_key_service_org.

Examples:
  $ wes legacy prompt flow.json
  $ wes legacy prompt flow.json --ws --download out/
  $ cat flow.json | wes legacy prompt - --wait --json`);

  const status = legacy.command('status <prompt_id>').description('Print the v1 status; --wait polls until success, error, non_retryable_error, lost or cancelled');
  typedCommand(status, legacyStatusOptions(), action, () => import('./status.js'), legacyStatusRules)
    .addHelpText('after', '\nExamples:\n  $ wes legacy status "$PROMPT_ID"\n  $ wes legacy status "$PROMPT_ID" --wait --timeout 600');

  const watch = legacy.command('watch <prompt_id>').description('Follow a prompt over the WebSocket; exit 0 success, 3 error, 10 interrupted');
  typedCommand(watch, legacyWatchOptions(), action, () => import('./watch.js'), legacyWatchRules)
    .addHelpText('after', '\nExamples:\n  $ wes legacy watch "$PROMPT_ID" --preview\n  $ wes legacy watch "$PROMPT_ID" --previews previews/ --json > messages.ndjson');

  const list = legacy.command('list').description('List jobs, newest first, a page at a time (the cloud\'s job list; an engine\'s queue and history)');
  typedCommand(list, legacyListOptions(), action, () => import('./list.js'))
    .addHelpText('after', '\nExamples:\n  $ wes legacy list\n  $ wes legacy list --status failed,cancelled --limit 20\n  $ wes legacy list --offset 100 --json');

  const queue = legacy.command('queue').description('Show running and pending prompts; `queue delete` takes pending ones off');
  typedCommand(queue, noOptions(), action, () => import('./queue.js'))
    .addHelpText('after', '\nExamples:\n  $ wes legacy queue\n  $ wes legacy queue delete "$PROMPT_ID"');
  const queueDelete = queue.command('delete <prompt_id...>').description('Take pending prompts off the queue; a running one is left (exit 6) unless --running stops it');
  typedCommand(queueDelete, legacyQueueDeleteOptions(), action, () => import('./queue-delete.js'))
    .addHelpText('after', '\nExamples:\n  $ wes legacy queue delete "$PROMPT_ID"\n  $ wes legacy queue delete "$ID1" "$ID2" --running');

  const interrupt = legacy.command('interrupt [prompt_id]').description('Stop the prompt running now, or the named one and no other (nothing is sent when it is not running)');
  typedCommand(interrupt, noOptions(), action, () => import('./interrupt.js'))
    .addHelpText('after', '\nExamples:\n  $ wes legacy interrupt "$PROMPT_ID"\n  $ wes legacy interrupt --quiet && wes legacy queue');

  const view = legacy.command('view <filename>').description('Fetch an output file (the signed redirect is followed with no key); to -o FILE, or stdout when piped');
  typedCommand(view, legacyViewOptions(), action, () => import('./view.js'), legacyViewRules)
    .addHelpText('after', '\nExamples:\n  $ wes legacy view wes_00001_.png -o cat.png\n  $ wes legacy view wes_00001_.png > cat.png');
}
