import type { Command } from 'commander';
import type { ActionFactory } from '../types.js';
import { noOptions, typedCommand } from '../typed-options.js';
import { modelsListOptions, modelsRunOptions, modelsRunRules, modelsSchemaOptions } from './options.js';

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
  const show = models.command('show <provider/model>').description('Show one catalog entry, with the link to its input schema');
  typedCommand(show, noOptions(), action, () => import('./show.js'))
    .addHelpText('after', '\nExamples:\n  $ wes models show dev/echo\n  $ wes models show dev/echo --json');
  const schema = models.command('schema <provider/model>').description("Show a model's input fields (cached per profile, revalidated with its ETag)");
  typedCommand(schema, modelsSchemaOptions(), action, () => import('./schema.js'))
    .addHelpText('after', '\nExamples:\n  $ wes models schema dev/upscale\n  $ wes models schema dev/upscale --json > upscale.openapi.json');
  const run = models.command('run <provider/model>').description("Run a model: its own JSON in, its own JSON out (printed exactly as the router sent it)");
  typedCommand(run, modelsRunOptions(), action, () => import('./run.js'), modelsRunRules)
    .addHelpText('after', `
Examples:
  $ wes models run dev/echo -d '{"message":"hi"}'
  $ wes models run dev/image -i prompt="a red fox" -i width=256 --download out/ --show
  $ wes models run dev/upscale --input body.json --idempotency-key job-42 -o result.json`);
}
