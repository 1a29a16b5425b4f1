import { Option, type Command } from 'commander';
import type { ActionFactory } from '../types.js';
import { convertOptions } from '../workflows/options.js';
import { existingFileFlags } from '../option-values.js';

const DEPRECATED = 'Deprecated cloud API v1; each command names its v2 replacement once on stderr (--quiet hides it).';

export function registerLegacy(program: Command, action: ActionFactory): void {
  const legacy = program
    .command('legacy')
    .description('Deprecated cloud API v1: prompts, uploads, status, queue, WebSocket progress')
    .helpGroup('Cloud API v1 (deprecated):')
    .addHelpText('after', `\n${DEPRECATED}`);

  legacy
    .command('object-info [class]')
    .description('List node classes, or show one class\'s inputs (--json: object_info as sent)')
    .addHelpText('after', '\nExamples:\n  $ wes legacy object-info\n  $ wes legacy object-info Sample\n  $ wes legacy object-info --json | jq keys')
    .action(action(() => import('./object-info.js')));

  legacy
    .command('upload <file>')
    .description('Upload an input image (multipart field `image`); prints the name to use in a LoadImage node')
    .addOption(new Option('--type <type>', 'input for images, temp for temporary files').choices(['input', 'temp']).default('input'))
    .option('--overwrite', 'replace a file of the same name instead of getting a numbered copy')
    .option('--mask', 'upload a mask for an earlier image (needs --original)')
    .option('--original <file_ref>', 'the image the mask belongs to: a name, or {"filename":…,"subfolder":…,"type":…}')
    .addHelpText('after', '\nExamples:\n  $ wes legacy upload cat.png\n  $ wes legacy upload cat-mask.png --mask --original cat.png\n  $ wes legacy upload m.png --mask --original \'{"filename":"cat.png","subfolder":"","type":"input"}\'')
    .action(action(() => import('./upload.js')));

  const prompt = convertOptions(legacy
    .command('prompt <workflow>'))
    .description('Submit an API-format workflow (- reads standard input); prints the prompt id')
    .option('--wait', 'poll the status until the prompt ends; exit code by outcome')
    .option('--ws', 'follow the WebSocket instead: live node and step progress')
    .option('--previews <dir>', 'save preview images into DIR (follows the WebSocket)')
    .option('--download <dir>', 'when the prompt succeeds, save its outputs into DIR (follows the WebSocket)')
    .option('--interval <seconds>', 'seconds between status polls (default 1; 5 as a safety net while on the WebSocket)');
  existingFileFlags(prompt)
    .addHelpText('after', `
The partner-node key (--partner-key, WES_PARTNER_KEY) goes into extra_data.api_key_service_org.

Examples:
  $ wes legacy prompt flow.json
  $ wes legacy prompt flow.json --ws --download out/
  $ cat flow.json | wes legacy prompt - --wait --json`)
    .action(action(() => import('./prompt.js')));

  legacy
    .command('status <prompt_id>')
    .description('Print the v1 status; --wait polls until success, error, non_retryable_error, lost or cancelled')
    .option('--wait', 'poll until a terminal status; exit 0 success, 3 failed or lost, 10 cancelled')
    .option('--interval <seconds>', 'seconds between polls (default 1)')
    .addHelpText('after', '\nExamples:\n  $ wes legacy status "$PROMPT_ID"\n  $ wes legacy status "$PROMPT_ID" --wait --timeout 600')
    .action(action(() => import('./status.js')));

  const watch = legacy
    .command('watch <prompt_id>')
    .description('Follow a prompt over the WebSocket; exit 0 success, 3 error, 10 interrupted')
    .option('--previews <dir>', 'save preview images into DIR, named by node and sequence')
    .option('--interval <seconds>', 'seconds between REST status checks while the socket is quiet (default 5)');
  existingFileFlags(watch)
    .addHelpText('after', '\nExamples:\n  $ wes legacy watch "$PROMPT_ID"\n  $ wes legacy watch "$PROMPT_ID" --previews previews/ --json > messages.ndjson')
    .action(action(() => import('./watch.js')));

  const queue = legacy
    .command('queue')
    .description('Show running and pending prompts; `queue delete` cancels some')
    .addHelpText('after', '\nExamples:\n  $ wes legacy queue\n  $ wes legacy queue delete "$PROMPT_ID"')
    .action(action(() => import('./queue.js')));
  queue
    .command('delete <prompt_id...>')
    .description('Cancel pending or running prompts')
    .addHelpText('after', '\nExamples:\n  $ wes legacy queue delete "$PROMPT_ID"\n  $ wes legacy queue delete "$ID1" "$ID2"')
    .action(action(() => import('./queue-delete.js')));

  legacy
    .command('interrupt')
    .description('Interrupt the prompt running now')
    .addHelpText('after', '\nExamples:\n  $ wes legacy interrupt\n  $ wes legacy interrupt --quiet && wes legacy queue')
    .action(action(() => import('./interrupt.js')));

  const view = legacy
    .command('view <filename>')
    .description('Fetch an output file (the signed redirect is followed with no key); to -o FILE, or stdout when piped')
    .option('--subfolder <subfolder>', 'subfolder of the file reference', '')
    .addOption(new Option('--type <type>', 'output for final outputs, temp for previews').choices(['output', 'temp', 'input']).default('output'))
    .option('-o, --output <file>', 'write to FILE (- for stdout)');
  existingFileFlags(view)
    .addHelpText('after', '\nExamples:\n  $ wes legacy view wes_00001_.png -o cat.png\n  $ wes legacy view wes_00001_.png > cat.png')
    .action(action(() => import('./view.js')));
}
