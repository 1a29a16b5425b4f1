// One download at a time of a file into a folder. Two downloads of the same output into one folder
// (two wes at once, or two calls in one `wes mcp` session) appended into one NAME.part: the file that
// took its final name held the bytes twice, and the other run failed on a part that was gone. A
// download holds NAME.part.lock, created exclusively and holding its pid, from before it opens the
// part until the part has its final name or is kept; another finds it and stops, naming the pid.
// A lock whose process is gone (a run killed with -9) is taken over.
import { open, readFile, unlink } from 'node:fs/promises';
import { basename } from 'node:path';
import { ExitCode, WesError } from '../errors.js';

export class DownloadBusyError extends WesError {
  constructor(finalPath: string, pid: number) {
    super(`${basename(finalPath)} is being downloaded into this folder by another wes (pid ${pid})`, {
      exitCode: ExitCode.ERROR,
      code: 'download_busy',
      hint: `wait for that download to end, then run this again: a file it saved whole is kept, a part it kept is resumed (if no wes is running, remove ${finalPath}.part.lock)`,
      details: { path: finalPath, pid },
    });
  }
}

/** Whether a process of this pid exists (ours or another user's). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock of `finalPath`'s part; resolves to what releases it. Throws DownloadBusyError when a running process holds it. */
export async function lockPart(finalPath: string): Promise<() => Promise<void>> {
  const lock = `${finalPath}.part.lock`;
  for (let attempt = 0; ; attempt++) {
    try {
      // Exclusive create: never opens what is there, a planted link included.
      const handle = await open(lock, 'wx', 0o600);
      try {
        await handle.writeFile(`${process.pid}\n`);
      } finally {
        await handle.close();
      }
      return () => unlink(lock).catch(() => undefined);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number.parseInt(await readFile(lock, 'utf8').catch(() => ''), 10);
      if (Number.isSafeInteger(holder) && holder > 0 && isRunning(holder)) throw new DownloadBusyError(finalPath, holder);
      // Its process is gone, or it is being written this instant: taken over, or tried again.
      if (attempt >= 2) throw new DownloadBusyError(finalPath, holder > 0 ? holder : 0);
      if (!Number.isSafeInteger(holder) || holder <= 0) await new Promise((resolve) => setTimeout(resolve, 20));
      else await unlink(lock).catch(() => undefined);
    }
  }
}
