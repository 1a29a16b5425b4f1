// An answer written into its file as it arrives (`models run -o FILE`), the way writeFileSafely
// writes one held in memory: a fresh temp file created exclusively next to the target (its
// folders made first), filled, then given the target's name (replacing it only when allowed). The
// chunks are appended as they come (PartAppender), so the answer is never held in memory whole
// and the disk writes overlap the transfer. An attempt that breaks leaves nothing behind.
import { dirname } from 'node:path';
import { unlink } from 'node:fs/promises';
import type { AnswerSink, OpenAnswerSink } from '../http/answer-sink.js';
import { PartAppender } from './part-writer.js';
import { commitFile, createFresh, makeFolders } from './safe-file.js';

/** A sink that writes the answer to `path`; its result is the number of bytes written. */
export function answerFile(path: string, replace: boolean): AnswerSink<number> {
  return {
    async open(): Promise<OpenAnswerSink<number>> {
      await makeFolders(dirname(path));
      const fresh = await createFresh(path);
      const appender = new PartAppender(fresh.handle);
      let bytes = 0;
      let closed = false;
      const closeHandle = async () => {
        if (closed) return;
        closed = true;
        await fresh.handle.close();
      };
      return {
        take(chunk) {
          appender.add(chunk);
          bytes += chunk.length;
        },
        async close() {
          try {
            appender.flush();
            await closeHandle();
            await commitFile(fresh.path, path, replace);
          } catch (err) {
            await closeHandle().catch(() => undefined);
            await unlink(fresh.path).catch(() => undefined);
            throw err;
          }
          return bytes;
        },
        async drop() {
          await closeHandle().catch(() => undefined);
          await unlink(fresh.path).catch(() => undefined);
        },
      };
    },
  };
}
