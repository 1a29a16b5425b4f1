// wes library task ID: a background download of the library (GET /api/tasks/{id}); --wait follows it
// to its end and prints the asset it made, as `library download --wait` does.
import type { Factory } from '../../factory.js';
import { LibraryClient } from '../../clients/legacy/library.js';
import { printRecord } from '../../render/table.js';
import { formatBytes } from '../../util/byte-count.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { intervalMs, intervalOption } from '../poll-interval.js';
import { flag, needs, type OptionsDeclaration } from '../typed-options.js';
import { arg, defineVerb, type ArgsOf } from '../verb.js';
import { waitForDownload } from './task-view.js';
import { urlFileName } from './url.js';

interface LibraryTaskOptions {
  wait?: boolean;
  interval?: number;
}

const options = (): OptionsDeclaration<LibraryTaskOptions> => ({
  wait: flag('--wait', 'follow the download until the asset is ready, then print its id'),
  interval: intervalOption('seconds between checks with --wait (default 2)'),
});

const positional = { id: arg('<task-id>', 'the task id `library download` printed') };

/** The source URL's file name, decoded and without its query, as `library download` names it ('' when it has none). */
function sourceFileName(source: string | undefined): string {
  if (source === undefined) return '';
  try {
    return urlFileName(new URL(source));
  } catch {
    return '';
  }
}

async function run(f: Factory, args: ArgsOf<typeof positional>, opts: LibraryTaskOptions): Promise<number> {
  const client = f.client(LibraryClient);
  const task = await client.task(args.id);
  const source = typeof task.payload?.source_url === 'string' ? task.payload.source_url : undefined;
  if (opts.wait) {
    const name = task.result?.filename ?? (sourceFileName(source) || args.id);
    return waitForDownload(f, client, args.id, intervalMs(opts.interval, 2), { name: sanitizeLine(name) }, task);
  }
  const bytes = task.result?.bytes_downloaded;
  printRecord(f.io, task, () => [
    ['task', task.id],
    ['status', task.status],
    ['source', source === undefined ? undefined : sanitizeLine(source)],
    ['file', task.result?.filename ? sanitizeLine(task.result.filename) : undefined],
    ['downloaded', typeof bytes === 'number' ? `${formatBytes(bytes)} (${bytes} bytes)` : undefined],
    ['asset', task.result?.asset_id],
    ['error', task.error_message ? sanitizeLine(task.error_message) : undefined],
    ['created', task.create_time],
    ['updated', task.update_time],
  ]);
  return 0;
}

export default defineVerb({
  path: ['library', 'task'],
  args: positional,
  options: options(),
  rules: [needs<LibraryTaskOptions>('interval', 'wait')],
  help: {
    summary: 'Show a background download of the library, or follow it with --wait',
    after: ['\nExamples:\n  $ wes library task "$TASK"\n  $ wes library task "$TASK" --wait', '\nExit 3 with --wait: the download failed.'],
  },
  run,
});
