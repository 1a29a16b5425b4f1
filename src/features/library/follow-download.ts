// Follows a library download task to its end (completed or failed) by polling GET /api/tasks/{id},
// the route openapi-cloud.yaml names for it; each state on the way is told to the reporter. A
// Ctrl-C or the --timeout deadline stops following only: the download goes on in the cloud, and
// the error says how to pick it up again.
import type { LibraryClient } from '../../clients/legacy/library.js';
import { InterruptedError, WesError } from '../../errors.js';
import type { LibraryTask } from '../../protocol/library.js';
import type { FeatureContext } from '../context.js';
import type { FollowReporter } from '../reporter.js';

export function isTaskOver(task: Pick<LibraryTask, 'status'>): boolean {
  return task.status === 'completed' || task.status === 'failed';
}

/** The command that picks a download up again. */
export function resumeCommand(taskId: string): string {
  return `wes library task ${taskId} --wait`;
}

/** `first`: the task as the caller has just read it (its state is the first one told, not read again). */
export async function followDownload(f: Pick<FeatureContext, 'signal' | 'clock'>, client: LibraryClient, taskId: string, everyMs: number, reporter: FollowReporter<LibraryTask>, first?: LibraryTask): Promise<LibraryTask> {
  try {
    let task = first ?? (await client.task(taskId));
    for (;;) {
      reporter.progress(task);
      if (isTaskOver(task)) return task;
      await f.clock.sleep(everyMs, f.signal);
      task = await client.task(taskId);
    }
  } catch (err) {
    reporter.stop();
    if (err instanceof InterruptedError) throw err.tell(`download task ${taskId} goes on in the cloud`, resumeCommand(taskId), { task_id: taskId });
    if (err instanceof WesError && err.code === 'timeout') err.hint = `the download goes on in the cloud; follow it again with: ${resumeCommand(taskId)}`;
    throw err;
  }
}
