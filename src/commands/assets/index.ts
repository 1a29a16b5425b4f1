import type { Command } from 'commander';
import type { ActionFactory } from '../types.js';
import { existingFileFlags } from '../option-values.js';

export function registerAssets(program: Command, action: ActionFactory): void {
  const assets = program
    .command('assets')
    .description('Upload input files and fetch assets (job API v2)')
    .helpGroup('Job API v2:');
  assets
    .command('upload <file>')
    .description('Upload a file as an asset (sends no bytes when the service already holds them); prints the asset id')
    .option('--content-type <type>', 'media type (default: from the file extension)')
    .option('--name <file-path>', 'the name to record (default: the file name); workflows may refer to it')
    .addHelpText('after', `
Examples:
  $ wes assets upload cat.png
  $ wes assets upload mask.png --name masks/cat-mask.png --json`)
    .action(action(() => import('./upload.js')));
  assets
    .command('get <id>')
    .description('Show an asset record (name, type, size, hash, producing job)')
    .addHelpText('after', `
Examples:
  $ wes assets get "$ASSET"
  $ wes assets get "$ASSET" --json | jq -r .hash`)
    .action(action(() => import('./get.js')));
  existingFileFlags(
    assets
      .command('download <id> [path]')
      .description('Save an asset\'s bytes to PATH (a file, or a folder; default: its name in the current folder), blake3-checked'),
  )
    .addHelpText('after', `
Examples:
  $ wes assets download "$ASSET"
  $ wes assets download "$ASSET" out/cat.png`)
    .action(action(() => import('./download.js')));
}
