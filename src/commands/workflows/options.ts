// The flags that say where node definitions come from, shared by every command that converts.
import type { Command } from 'commander';

export function objectInfoOptions(cmd: Command): Command {
  return cmd
    .option('--object-info <file>', 'node definitions from a saved object_info JSON (offline) instead of the server\'s /api/object_info')
    .option('--refresh', 'fetch the server\'s object_info again instead of using the cached copy');
}

/** --convert and its definition flags, for the commands that submit a workflow file. */
export function convertOptions(cmd: Command): Command {
  return objectInfoOptions(cmd.option('--convert', 'convert a workflow saved in the editor\'s UI format to the API format before sending (as `wes workflows convert`)'));
}
