import type { Command } from 'commander';
import type { ActionFactory } from '../types.js';
import { noOptions, typedCommand } from '../typed-options.js';
import { assetsDownloadOptions, assetsUploadOptions } from './options.js';

export function registerAssets(program: Command, action: ActionFactory): void {
  const assets = program
    .command('assets')
    .description('Upload input files, fetch and delete assets (job API v2)')
    .helpGroup('Job API v2:');
  const upload = assets
    .command('upload <file>')
    .description('Upload a file as an asset (sends no bytes when the service already holds them); prints the asset id');
  typedCommand(upload, assetsUploadOptions(), action, () => import('./upload.js'))
    .addHelpText('after', `
A workflow refers to it with --set NODE.INPUT=asset:ID (or uploads it itself with --set NODE.INPUT=@FILE).

Examples:
  $ wes assets upload cat.png
  $ wes assets upload mask.png --name masks/cat-mask.png --tag input --json
  $ wes assets upload clip.mp4 --expires-in 3600`);
  typedCommand(assets.command('get <id>'), noOptions(), action, () => import('./get.js'))
    .description('Show an asset record (file path, content type, size, hash, producing job, expiry)')
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
  typedCommand(assets.command('delete <id...>'), noOptions(), action, () => import('./delete.js'))
    .description('Delete asset records (their bytes stay while another asset uses them); every id is tried')
    .addHelpText('after', `
Exit 0 when every record was deleted; 5 for an id that is no asset of yours; 6 for one the service still
depends on (asset_in_use).

Examples:
  $ wes assets delete "$ASSET"
  $ wes assets delete "$A" "$B" --json | jq -r '.[] | select(.deleted | not) | .id'`);
}
