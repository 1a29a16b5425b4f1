import type { Command } from 'commander';
import type { ActionFactory } from '../types.js';
import { typedCommand } from '../typed-options.js';
import { workflowsConvertOptions, workflowsConvertRules, workflowsValidateOptions } from './options.js';

export function registerWorkflows(program: Command, action: ActionFactory): void {
  const workflows = program
    .command('workflows')
    .description('Convert workflows saved in the editor (UI format) to the API format, and check them locally')
    .helpGroup('Job API v2:');

  const convert = workflows
    .command('convert <workflow>')
    .description('Print the API-format workflow of a UI-format file (- reads standard input), as the editor\'s "Export (API)" gives it');
  typedCommand(convert, workflowsConvertOptions(), action, () => import('./convert.js'), workflowsConvertRules())
    .addHelpText('after', `
Node definitions come from the server's /api/object_info (cached per base URL; --refresh asks
again), or from a saved object_info JSON with --object-info (no network). Anything that cannot be
converted exactly (unknown node classes, links to missing nodes, widget counts that do not match,
group nodes, subgraphs) is listed, every problem at once, with exit 2. An existing -o file with
other bytes stops the command (exit 1) unless --clobber or --skip-existing says what to do; one
with the same bytes is kept as it is.

Examples:
  $ wes workflows convert ui.json > api.json
  $ wes workflows convert ui.json --object-info object_info.json -o api.json
  $ wes api GET /api/object_info > object_info.json   # save the definitions once, digit for digit`);

  const validate = workflows
    .command('validate <workflow>')
    .description('Check a workflow (either format) against the node definitions as the server would, without submitting');
  typedCommand(validate, workflowsValidateOptions(), action, () => import('./validate.js'))
    .addHelpText('after', `
Checks link types, required inputs, number ranges and combo choices of every node that feeds an
output node, and lists every problem with the server's error types. Exit 0 when valid, 6 when the
server would refuse it, 2 when a UI-format file cannot be converted.

Examples:
  $ wes workflows validate api.json
  $ wes workflows validate ui.json --object-info object_info.json --json | jq .node_errors`);
}
