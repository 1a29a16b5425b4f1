// How `library download --wait` and `library task --wait` show a download task: one live line on
// stderr (a spinner redrawn in place on a terminal, a plain line per change elsewhere, nothing with
// --json or --quiet), then the asset it made on stdout, or the failure (exit 3).
import type { Factory } from '../../factory.js';
import type { LibraryClient } from '../../clients/legacy/library.js';
import { ExitCode, WesError } from '../../errors.js';
import { followDownload } from '../../features/library/follow-download.js';
import type { FollowReporter } from '../../features/reporter.js';
import type { LibraryTask } from '../../protocol/library.js';
import { openProgressDisplay } from '../../render/open-progress.js';
import type { ProgressDisplay } from '../../render/progress-display.js';
import { formatBytes } from '../../util/byte-count.js';
import { sanitizeLine } from '../../util/sanitize.js';

/** What is being downloaded, for the live line: the file's name and size where the cloud said them. */
export interface DownloadLabel {
  name: string;
  size?: number;
}

function labelText(label: DownloadLabel): string {
  return label.size !== undefined && label.size >= 0 ? `${label.name} (${formatBytes(label.size)})` : label.name;
}

function seconds(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

function stateText(task: LibraryTask, label: DownloadLabel, since: number, now: number): string {
  const bytes = task.result?.bytes_downloaded;
  const done = typeof bytes === 'number' ? ` · ${formatBytes(bytes)}` : '';
  return `downloading ${labelText(label)}: ${task.status}${done} · ${seconds(now - since)}`;
}

/** Follows the task with a live line (from `first` when the caller has just read it), then prints the asset it made (or throws its failure). */
export async function waitForDownload(f: Factory, client: LibraryClient, taskId: string, everyMs: number, label: DownloadLabel, first?: LibraryTask): Promise<number> {
  const since = f.clock.now();
  const display: ProgressDisplay | undefined = f.io.json ? undefined : await openProgressDisplay(f.io, `downloading ${labelText(label)}: task ${taskId}`);
  const reporter: FollowReporter<LibraryTask> = {
    verbose: false,
    notice: (_level, line) => f.io.info(line),
    progress: (task) => display?.update(stateText(task, label, since, f.clock.now())),
    event: (line) => display?.log(line),
    stop: () => display?.stop(),
  };
  const task = await followDownload(f, client, taskId, everyMs, reporter, first);
  if (task.status === 'failed') {
    const why = sanitizeLine(task.error_message ?? task.result?.error ?? 'the cloud gave no reason');
    display?.fail(`download task ${taskId} failed: ${why}`);
    throw new WesError(`download task ${taskId} failed: ${why}`, { exitCode: ExitCode.FAILED, code: 'download_failed', details: task });
  }
  const assetId = task.result?.asset_id;
  if (!assetId) {
    display?.succeed(`download task ${taskId} completed`);
    if (f.io.json) f.io.printJson(task);
    f.io.notice(`the task named no asset: find it with wes library list --name ${JSON.stringify(task.result?.filename ?? label.name)}`);
    return 0;
  }
  const asset = await client.get(assetId);
  display?.succeed(sanitizeLine(`${asset.name} in the library as ${asset.id} (${formatBytes(asset.size)} downloaded in ${seconds(f.clock.now() - since)})`));
  if (f.io.json) f.io.printJson(asset);
  else f.io.println(asset.id);
  return 0;
}
