import type { Command } from 'commander';
import type { ActionFactory } from '../types.js';
import { noOptions, typedCommand } from '../typed-options.js';
import { assetsDownloadOptions, assetsUploadOptions } from './options.js';

export function registerAssets(program: Command, action: ActionFactory): void {
  const assets = program
    .command('assets')
    .description('Upload input files and fetch assets (job API v2)')
    .helpGroup('Job API v2:');
  const upload = assets
    .command('upload <file>')
    .description('Upload a file as an asset (sends no bytes when the service already holds them); prints the asset id');
  typedCommand(upload, assetsUploadOptions(), action, () => import('./upload.js'))
    .addHelpText('after', `
Examples:
  $ wes assets upload cat.png
  $ wes assets upload mask.png --name masks/cat-mask.png --json`);
  typedCommand(assets.command('get <id>'), noOptions(), action, () => import('./get.js'))
    .description('Show an asset record (name, type, size, hash, producing job)')
    .addHelpText('after', `
Examples:
  $ wes assets get "$ASSET"
  $ wes assets get "$ASSET" --json | jq -r .hash`);
  const download = assets
    .command('download <id> [path]')
    .description('Save an asset\'s bytes to PATH (a file, or a folder; default: its name in the current folder), blake3-checked');
  typedCommand(download, assetsDownloadOptions(), action, () => import('./download.js'))
    .addHelpText('after', `
Examples:
  $ wes assets download "$ASSET"
  $ wes assets download "$ASSET" out/cat.png`);
}
