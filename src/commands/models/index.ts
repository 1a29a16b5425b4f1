import type { Command } from 'commander';
import type { ActionFactory } from '../types.js';
import { noOptions, typedCommand } from '../typed-options.js';
import { modelsListOptions, modelsRequestsOptions, modelsResultOptions, modelsResultRules, modelsRunOptions, modelsRunRules, modelsSchemaOptions } from './options.js';

export function registerModels(program: Command, action: ActionFactory): void {
  const models = program
    .command('models')
    .description('Discover and run partner models through the model router')
    .helpGroup('Model router:')
    .addHelpText('after', `
Discovery, end to end:
  $ wes models list --all --provider dev
  $ wes models schema dev/upscale
  $ wes models run dev/upscale -i image=@photo.png -i scale=4

Queued delivery (long generations; the published router's routes):
  $ wes models run dev/slow -d '{"duration_ms":5000}' --queue
  $ wes models status @last
  $ wes models result @last --wait -o out.json`);
  const list = models.command('list').description('List runnable models: one page, or every page with --all');
  typedCommand(list, modelsListOptions(), action, () => import('./list.js'))
    .addHelpText('after', '\nExamples:\n  $ wes models list\n  $ wes models list --all --provider acme\n  $ wes models list --all --json | jq -r \'.[].id\'');
  const show = models.command('show <provider/model>').description('Show one catalog entry, with the link to its input schema');
  typedCommand(show, noOptions(), action, () => import('./show.js'))
    .addHelpText('after', '\nExamples:\n  $ wes models show dev/echo\n  $ wes models show dev/echo --json');
  const schema = models.command('schema <provider/model>').description("Show a model's input fields (cached per profile, revalidated with its ETag)");
  typedCommand(schema, modelsSchemaOptions(), action, () => import('./schema.js'))
    .addHelpText('after', '\nExamples:\n  $ wes models schema dev/upscale\n  $ wes models schema dev/upscale --json > upscale.openapi.json');
  const run = models.command('run <provider/model>').description("Run a model: its own JSON in, its own output out (printed exactly as the router sent it); --queue for queued delivery");
  typedCommand(run, modelsRunOptions(), action, () => import('./run.js'), modelsRunRules)
    .addHelpText('after', `
Examples:
  $ wes models run dev/echo -d '{"message":"hi"}'
  $ wes --router-api v2 models run dev/speech -i text=hello -o hello.wav
  $ wes models run dev/slow -d '{"duration_ms":5000}' --queue --wait -o slow.json`);
  const status = models.command('status <provider/model|@last> [request-id]').description('Show the state of a queued request: IN_QUEUE (with its position), IN_PROGRESS or COMPLETED');
  typedCommand(status, noOptions(), action, () => import('./status.js'))
    .addHelpText('after', '\nExamples:\n  $ wes models status dev/slow 6f1a1a6e-6a53-4a5f-9d3a-2b3b0a1f9c21\n  $ wes models status @last --json');
  const result = models.command('result <provider/model|@last> [request-id]').description("Collect a queued request's output (exit 8 while it is not ready; --wait follows it until it is)");
  typedCommand(result, modelsResultOptions(), action, () => import('./result.js'), modelsResultRules)
    .addHelpText('after', '\nExamples:\n  $ wes models result dev/slow 6f1a1a6e-6a53-4a5f-9d3a-2b3b0a1f9c21 --wait\n  $ wes models result @last -o out.json\n  $ wes models result @2 --download out/ --wait');
  const cancel = models.command('cancel <provider/model|@last> [request-id]').description('Ask the router to cancel a queued request (a run already at the provider may still complete)');
  typedCommand(cancel, noOptions(), action, () => import('./cancel.js'))
    .addHelpText('after', '\nExamples:\n  $ wes models cancel dev/slow 6f1a1a6e-6a53-4a5f-9d3a-2b3b0a1f9c21\n  $ wes models cancel @last');
  const requests = models.command('requests').description('List the model requests queued from this machine, newest first, with their last known state');
  typedCommand(requests, modelsRequestsOptions(), action, () => import('./requests.js'))
    .addHelpText('after', '\nExamples:\n  $ wes models requests\n  $ wes models requests --refresh --model dev/slow\n  $ wes models requests --json | jq -r \'.[0].request_id\'');
}
