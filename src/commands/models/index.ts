import type { Command } from 'commander';
import type { ActionFactory } from '../types.js';
import { collect, existingFileFlags } from '../option-values.js';
import { typedCommand } from '../typed-options.js';
import { modelsListOptions, modelsSchemaOptions } from './options.js';

export function registerModels(program: Command, action: ActionFactory): void {
  const models = program
    .command('models')
    .description('Discover and run partner models through the model router')
    .helpGroup('Model router:')
    .addHelpText('after', `
Discovery, end to end:
  $ wes models list --all --provider dev
  $ wes models schema dev/upscale
  $ wes models run dev/upscale -i image=@photo.png -i scale=4`);
  const list = models.command('list').description('List runnable models: one page, or every page with --all');
  typedCommand(list, modelsListOptions(), action, () => import('./list.js'))
    .addHelpText('after', '\nExamples:\n  $ wes models list\n  $ wes models list --all --provider acme\n  $ wes models list --all --json | jq -r \'.[].id\'');
  models
    .command('show <provider/model>')
    .description('Show one catalog entry, with the link to its input schema')
    .addHelpText('after', '\nExamples:\n  $ wes models show dev/echo\n  $ wes models show dev/echo --json')
    .action(action(() => import('./show.js')));
  const schema = models.command('schema <provider/model>').description("Show a model's input fields (cached per profile, revalidated with its ETag)");
  typedCommand(schema, modelsSchemaOptions(), action, () => import('./schema.js'))
    .addHelpText('after', '\nExamples:\n  $ wes models schema dev/upscale\n  $ wes models schema dev/upscale --json > upscale.openapi.json');
  const run = models
    .command('run <provider/model>')
    .description("Run a model: its own JSON in, its own JSON out (printed exactly as the router sent it)")
    .option('--input <file>', 'the input JSON from a file, or - for standard input')
    .option('-d, --data <json>', 'input JSON given inline (merged over --input)')
    .option('-i, --param <key=value>', 'one input field, typed by the schema; key=@file reads a file (a data URI for binary fields); repeatable', collect)
    .option('--idempotency-key <key>', 'key reused on every retry (generated when absent)')
    .option('-o, --output <file>', 'write the output to a file instead of standard output')
    .option('--download <dir>', 'save every http(s) URL found in the output into this folder')
    .option('--no-validate', 'do not check the input against the cached schema first');
  existingFileFlags(run)
    .addHelpText('after', `
Examples:
  $ wes models run dev/echo -d '{"message":"hi"}'
  $ wes models run dev/image -i prompt="a red fox" -i width=256 --download out/
  $ wes models run dev/upscale --input body.json --idempotency-key job-42 -o result.json`)
    .action(action(() => import('./run.js')));
}
