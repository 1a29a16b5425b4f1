// wes library download URL: the cloud downloads a Hugging Face or Civitai file into the library in
// the background (createAssetDownload). A file the cloud stored already is an asset at once (200);
// otherwise the answer is a task (202), printed, or with --wait followed to its end with a live
// line on stderr (GET /api/tasks/{id}), and the asset it made printed.
import type { Factory } from '../../factory.js';
import { LibraryClient } from '../../clients/legacy/library.js';
import { WesError } from '../../errors.js';
import { resumeCommand } from '../../features/library/follow-download.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { intervalMs, intervalOption } from '../poll-interval.js';
import { flag, needs, nonEmpty, repeatableOption, type OptionsDeclaration } from '../typed-options.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';
import { waitForDownload, type DownloadLabel } from './task-view.js';
import { remoteUrl, urlFileName } from './url.js';

interface LibraryDownloadOptions {
  tag?: string[];
  wait?: boolean;
  interval?: number;
}

const options = (): OptionsDeclaration<LibraryDownloadOptions> => ({
  tag: repeatableOption('--tag <tag>', 'a tag for the asset, e.g. models, checkpoint, lora (repeatable)', nonEmpty),
  wait: flag('--wait', 'follow the download until the asset is ready, then print its id'),
  interval: intervalOption('seconds between checks of the download with --wait (default 2)'),
});

const positional = { url: arg('<url>', 'a Hugging Face or Civitai download URL') };

/** The file's name and size as the cloud sees them before downloading; the URL's name when it cannot say. */
async function labelOf(client: LibraryClient, url: URL): Promise<DownloadLabel> {
  try {
    const meta = await client.remoteMetadata(url.href);
    return { name: sanitizeLine(meta.filename ?? urlFileName(url)), size: meta.content_length };
  } catch (err) {
    if (err instanceof WesError) return { name: sanitizeLine(urlFileName(url) || url.host) };
    throw err;
  }
}

async function run(f: Factory, args: ArgsOf<typeof positional>, opts: LibraryDownloadOptions): Promise<number> {
  const url = remoteUrl(args.url);
  const client = f.client(LibraryClient);
  const label = opts.wait && !f.io.json ? await labelOf(client, url) : { name: sanitizeLine(urlFileName(url) || url.host) };
  const answer = await client.download({ sourceUrl: url.href, tags: opts.tag ?? [] });
  if (answer.kind === 'ready') {
    if (f.io.json) f.io.printJson(answer.asset);
    else f.io.println(answer.asset.id);
    f.io.info(sanitizeLine(`✓ ${answer.asset.name} in the library as ${answer.asset.id} (the cloud had the file already: nothing downloaded)`));
    return 0;
  }
  const { task_id: taskId, status } = answer.task;
  if (opts.wait) return waitForDownload(f, client, taskId, intervalMs(opts.interval, 2), label);
  if (f.io.json) f.io.printJson(answer.task);
  else f.io.println(taskId);
  f.io.info(sanitizeLine(`download of ${label.name} started in the cloud as task ${taskId} (${status}); follow it with: ${resumeCommand(taskId)}`));
  return 0;
}

export default defineVerb({
  path: ['library', 'download'],
  args: positional,
  options: options(),
  rules: [needs<LibraryDownloadOptions>('interval', 'wait')],
  help: {
    summary: 'Have the cloud download a Hugging Face or Civitai file into the library (--wait: until it is ready)',
    after: [
      '\nExamples:\n  $ wes library download https://huggingface.co/ORG/REPO/resolve/main/model.safetensors --tag models --tag checkpoint --wait\n  $ wes library download "https://civitai.com/api/download/models/123456" --tag models --tag lora',
      '\nWithout --wait it prints the task id; `wes library task ID --wait` follows it later. Exit 3: the download failed.',
    ],
  },
  run,
});
