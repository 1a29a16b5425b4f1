// A download's bytes written to its part file and hashed on a thread of their own, so that the
// thread that receives them does only that. Chunks read by a bulk socket are handed over without a
// copy: they lie in its shared read slots (http/reused-read-socket.ts), and each one's slot stays
// held until this thread has written and hashed it, which is also what keeps the reads from
// running ahead of the disk. Any other chunk (a stopgap read) is copied into memory moved to the
// thread, at most COPIED_IN_FLIGHT bytes ahead of it. The thread writes a chunk, then hashes it
// only when the whole chunk was written, so the part file always holds at least the hashed bytes
// (more after a write that failed part-way: the caller then trusts the file, as with local writes).
// One thread serves the whole process (a batch saves several outputs at once), started on the
// first large transfer; it holds the process open only while an answer from it is awaited.
import type { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { holdReadSlot, isReadSlotChunk } from '../http/reused-read-socket.js';
import { blake3Backend, nativeBlake3File } from '../util/blake3.js';
import type { HashSetting } from '../util/blake3-setting.js';
import { WRITE_BYTES, type PartStream, type Settled } from './part-writer.js';

/** Transfers smaller than this stay on the receiving thread: starting the thread costs more. */
export const THREAD_MIN_BYTES = 32 * 1024 * 1024;
/** Below this many cores the thread takes the core that the rest of the work needs (measured: bench/RESULTS.md). */
export const THREAD_MIN_CORES = 4;
/** Copied bytes the thread may be behind by before add() waits for it. */
const COPIED_IN_FLIGHT = 16 * 1024 * 1024;
/** Copies are gathered into pieces of this size before they are moved to the thread. */
const COPY_PIECE_BYTES = WRITE_BYTES;
const WAIT_SLICE_MS = 1_000;

/** WES_PART_THREAD: `1` always writes and hashes large downloads on the thread, `0` never, unset: when it pays. */
export type PartThreadSetting = '0' | '1' | undefined;

// The thread's program (CommonJS, run with eval: the built CLI is bundled and has no file for it).
// Writes end on WRITE_BYTES boundaries in the file, as on the receiving thread (see part-writer.ts).
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { writeSync } = require('node:fs');
const { Blake3Hasher } = require(workerData.binding);
const copied = new Int32Array(workerData.copied);
const WRITE_BYTES = ${WRITE_BYTES};
const streams = new Map();
function take(s, bytes) {
  if (s.error) return;
  try {
    for (let at = 0; at < bytes.length; ) {
      const n = writeSync(s.fd, bytes, at, Math.min(bytes.length - at, WRITE_BYTES - (s.position % WRITE_BYTES)));
      at += n;
      s.position += n;
    }
  } catch (err) {
    s.error = { message: err.message, code: err.code, errno: err.errno, syscall: err.syscall };
    Atomics.store(s.failed, 0, 1);
    return;
  }
  s.hasher.update(bytes);
  s.bytes += bytes.length;
}
parentPort.on('message', (m) => {
  if (m.open) {
    streams.set(m.id, { fd: m.open.fd, failed: m.open.failed, hasher: new Blake3Hasher(), position: 0, bytes: 0, error: undefined });
    return;
  }
  const s = streams.get(m.id);
  if (m.holds !== undefined) {
    try {
      take(s, new Uint8Array(m.memory, m.offset, m.length));
    } finally {
      Atomics.sub(m.holds, m.slot, 1);
      Atomics.notify(m.holds, m.slot);
    }
  } else if (m.bytes !== undefined) {
    try {
      take(s, m.bytes);
    } finally {
      Atomics.sub(copied, 0, m.bytes.byteLength);
      Atomics.notify(copied, 0);
    }
  } else if (m.settle) {
    parentPort.postMessage({ id: m.id, bytes: s.bytes, error: s.error });
    s.bytes = 0;
  } else if (m.digest) {
    streams.delete(m.id);
    parentPort.postMessage({ id: m.id, hex: s.hasher.digest('hex') });
  } else {
    streams.delete(m.id);
  }
});
`;

interface Answer {
  id: number;
  hex?: string;
  bytes?: number;
  error?: { message: string; code?: string; errno?: number; syscall?: string };
}

interface Waiting {
  resolve: (answer: Answer) => void;
  reject: (err: Error) => void;
}

/** What add() throws once the thread has reported a failed write: settle() gives the write's own error. */
class PartThreadFailed extends Error {
  constructor() {
    super('writing the part file failed');
  }
}

/** What the receiving side knows of one stream: its failure flag, and the hold counters of the sockets whose slots it handed over since its last settle. */
interface StreamState {
  failed: Int32Array;
  holds: Set<Int32Array>;
}

class PartThread {
  private readonly worker: Worker;
  /** Bytes copied to the thread and not yet written and hashed. */
  private readonly copied = new Int32Array(new SharedArrayBuffer(4));
  /** Who waits for an answer, per stream, in the order asked (the thread answers in that order). */
  private readonly waiting = new Map<number, Waiting[]>();
  private waitingCount = 0;
  /** The streams not yet spent: if the thread dies, their holds are released and their next chunk fails. */
  private readonly streams = new Set<StreamState>();
  private nextId = 1;
  failure: Error | undefined;

  constructor(binding: string) {
    const { Worker } = process.getBuiltinModule('node:worker_threads');
    this.worker = new Worker(THREAD_SOURCE, { eval: true, workerData: { binding, copied: this.copied.buffer }, stdout: false, stderr: false });
    this.worker.on('message', (answer: Answer) => this.answered(answer));
    this.worker.on('error', (err: Error) => this.fail(err));
    this.worker.on('exit', (code) => this.fail(new Error(`it stopped (exit code ${code})`)));
    // After the listeners: Node refs a worker's message port again when its first 'message'
    // listener is added, and a thread started for a transfer that never used it (a resumed part,
    // an https body) then held the process open for ever after the download was saved.
    this.worker.unref();
  }

  open(fd: number): PartStream {
    const id = this.nextId++;
    const state: StreamState = { failed: new Int32Array(new SharedArrayBuffer(4)), holds: new Set() };
    this.streams.add(state);
    this.worker.postMessage({ id, open: { fd, failed: state.failed } });
    let gathered: Uint8Array<ArrayBuffer> | undefined;
    let used = 0;
    const sendGathered = () => {
      if (!gathered || used === 0) return;
      this.sendCopy(id, used === gathered.length ? gathered : gathered.slice(0, used));
      gathered = undefined;
      used = 0;
    };
    return {
      add: (chunk) => {
        if (Atomics.load(state.failed, 0) !== 0) throw new PartThreadFailed();
        if (isReadSlotChunk(chunk)) {
          sendGathered();
          this.sendHeld(id, state, chunk);
          return;
        }
        for (let at = 0; at < chunk.length; ) {
          gathered ??= new Uint8Array(COPY_PIECE_BYTES);
          const n = Math.min(chunk.length - at, gathered.length - used);
          gathered.set(chunk.subarray(at, at + n), used);
          used += n;
          at += n;
          if (used === gathered.length) sendGathered();
        }
      },
      settle: async (): Promise<Settled> => {
        sendGathered();
        const answer = await this.ask(id, { id, settle: true });
        state.holds.clear(); // the thread took every chunk asked before the settle, and released their slots
        return answer.error ? { bytes: answer.bytes!, failure: Object.assign(new Error(answer.error.message), answer.error) } : { bytes: answer.bytes! };
      },
      digest: async () => {
        this.streams.delete(state);
        return (await this.ask(id, { id, digest: true })).hex!;
      },
      drop: () => {
        this.streams.delete(state);
        gathered = undefined;
        if (!this.failure) this.worker.postMessage({ id, drop: true });
      },
    };
  }

  private sendHeld(id: number, state: StreamState, chunk: Uint8Array): void {
    const held = holdReadSlot(chunk)!;
    state.holds.add(held.holds);
    this.worker.postMessage({ id, memory: held.memory, holds: held.holds, slot: held.slot, offset: held.offset, length: held.length });
  }

  private sendCopy(id: number, bytes: Uint8Array<ArrayBuffer>): void {
    if (this.failure) return;
    this.waitBelow(COPIED_IN_FLIGHT - bytes.length);
    Atomics.add(this.copied, 0, bytes.length);
    this.worker.postMessage({ id, bytes }, [bytes.buffer]);
  }

  /** Blocks until at most `limit` copied bytes wait for the thread (it is writing them meanwhile). */
  private waitBelow(limit: number): void {
    for (let behind = Atomics.load(this.copied, 0); behind > Math.max(limit, 0) && !this.failure; behind = Atomics.load(this.copied, 0)) {
      Atomics.wait(this.copied, 0, behind, WAIT_SLICE_MS);
    }
  }

  private ask(id: number, message: object): Promise<Answer> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise<Answer>((resolve, reject) => {
      const queue = this.waiting.get(id) ?? [];
      queue.push({ resolve, reject });
      this.waiting.set(id, queue);
      if (this.waitingCount++ === 0) this.worker.ref();
      this.worker.postMessage(message);
    });
  }

  private answered(answer: Answer): void {
    const queue = this.waiting.get(answer.id);
    const next = queue?.shift();
    if (!next) return;
    if (queue!.length === 0) this.waiting.delete(answer.id);
    if (--this.waitingCount === 0) this.worker.unref();
    next.resolve(answer);
  }

  private fail(err: Error): void {
    this.failure ??= new Error(`the thread that writes and hashes downloads failed: ${err.message}`);
    // Nothing will take what is held any more: let the sockets read into those slots again, and
    // stop every stream at its next chunk.
    for (const state of this.streams) {
      for (const holds of state.holds) {
        holds.fill(0);
        for (let slot = 0; slot < holds.length; slot++) Atomics.notify(holds, slot);
      }
      state.holds.clear();
      Atomics.store(state.failed, 0, 1);
    }
    Atomics.store(this.copied, 0, 0);
    Atomics.notify(this.copied, 0);
    for (const queue of this.waiting.values()) for (const w of queue) w.reject(this.failure);
    this.waiting.clear();
    this.waitingCount = 0;
    this.worker.unref();
  }
}

let thread: PartThread | undefined;

/** The native binding's file, for the thread to load; undefined when blake3 is not native here. */
function nativeBinding(hashing?: HashSetting): string | undefined {
  if (blake3Backend(hashing) !== 'native') return undefined;
  try {
    return nativeBlake3File();
  } catch {
    return undefined;
  }
}

/** Whether a transfer of `total` bytes whose first chunk is `first` is written and hashed on the thread. */
export function threadPays(first: Uint8Array, total: number | undefined, setting: PartThreadSetting, cores = availableParallelism()): boolean {
  if (setting === '0' || !isReadSlotChunk(first)) return false;
  if (setting === '1') return true;
  return total !== undefined && total >= THREAD_MIN_BYTES && cores >= THREAD_MIN_CORES;
}

/** The thread, started now when it is not running yet; undefined when it cannot serve. */
function startedThread(hashing?: HashSetting): PartThread | undefined {
  if (thread?.failure || hashing?.forceWasm) return undefined;
  if (!thread) {
    const binding = nativeBinding(hashing);
    if (!binding) return undefined;
    thread = new PartThread(binding);
  }
  return thread;
}

/**
 * Starts the thread ahead of a transfer that is declared large (its start takes ~25 ms, which
 * then overlaps the request instead of holding up the first chunks). Only a hint: whether the
 * transfer goes to the thread is decided at its first chunk (threadPays).
 */
export function warmPartThread(declaredBytes: number | null | undefined, hashing: HashSetting | undefined, cores = availableParallelism()): void {
  const setting = hashing?.partThread;
  if (setting === '0' || declaredBytes == null || declaredBytes < THREAD_MIN_BYTES || (setting !== '1' && cores < THREAD_MIN_CORES)) return;
  startedThread(hashing);
}

/**
 * A part stream on the thread for the part file open as `fd`, which must be empty (nothing
 * written or hashed yet); undefined when the thread cannot serve (blake3 is not native here, or the thread failed).
 */
export function partOnThread(fd: number, hashing?: HashSetting): PartStream | undefined {
  return startedThread(hashing)?.open(fd);
}
