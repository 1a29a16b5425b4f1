// Plain-TCP connections for downloads whose chunks are taken synchronously (ChunkedBody): each
// socket reads into a few 1 MiB slots it reuses (net's `onread`) instead of a fresh 64 KiB buffer
// per read. 16x fewer reads, each one a parse and a hand-over, and no garbage per read, so a
// download's memory stays flat whatever its size rather than growing until V8 collects buffers.
// A slot's memory is made when it is first read into: making all six with the socket cost 3.2 ms
// of CPU per connection (zeroed shared memory), one slot 0.5 ms, and a small answer needs one.
// A slot goes back to the kernel only when nothing of it is left unread in the socket (undici
// puts back what it has not parsed when the consumer pauses) and nobody holds it: the slots are
// shared memory, so a consumer may hand a chunk to another thread (the part file's, see
// files/part-thread.ts) without a copy, holding its slot until that thread is done with it.
// TLS keeps undici's own connector: this is the loopback and LAN case, where the CPU is the limit.
import { connect as netConnect, type Socket } from 'node:net';
import type { buildConnector } from 'undici';
import { ConnectTimeoutError } from './undici-core.js';
import { systemClock } from '../util/clock.js';

const SLOT_BYTES = 1 << 20;
/** Slots per socket: two for reading in turn, the others for chunks held by another thread. */
const SLOTS = 6;
/** What a read gets when every slot still holds unread or held bytes (Node's own read size). */
const STOPGAP_BYTES = 64 * 1024;
/** The longest a read waits for a held slot before it takes a stopgap buffer instead. */
const HELD_WAIT_MS = 2_000;
/** Reads remembered to tell which slots unread bytes lie in (more are unread only after small reads). */
const RECENT_READS = 32;
const CONNECT_TIMEOUT_MS = 10_000;
const KEEP_ALIVE_DELAY_MS = 60_000;

/**
 * A chunk's place in a socket's shared slots: `holds[slot]` counts who still reads it; whoever
 * took a hold ends it with `Atomics.sub(holds, slot, 1)` and `Atomics.notify(holds, slot)`.
 */
export interface HeldSlot {
  memory: SharedArrayBuffer;
  holds: Int32Array;
  slot: number;
  /** The chunk's bytes: [offset, offset + length) of memory. */
  offset: number;
  length: number;
}

/** Each slot's memory: the holds of its socket's slots, and which of them it is. */
const slotOf = new WeakMap<ArrayBufferLike, { holds: Int32Array; slot: number }>();

/** Whether a chunk lies in a bulk socket's read slots (what holdReadSlot can hold). */
export function isReadSlotChunk(chunk: Uint8Array): boolean {
  return slotOf.has(chunk.buffer);
}

/**
 * Holds the slot a chunk lies in (a chunk read by a bulk socket), so it is not read into again
 * until the hold ends; undefined for any other chunk (TLS, a copy), which is the caller's to copy.
 */
export function holdReadSlot(chunk: Uint8Array): HeldSlot | undefined {
  const at = slotOf.get(chunk.buffer);
  if (!at) return undefined;
  Atomics.add(at.holds, at.slot, 1);
  return { memory: chunk.buffer as SharedArrayBuffer, holds: at.holds, slot: at.slot, offset: chunk.byteOffset, length: chunk.length };
}

/** The read slots of one socket, handed to libuv in turn. */
class ReadSlots {
  readonly holds = new Int32Array(new SharedArrayBuffer(4 * SLOTS));
  /** Each slot's memory, once it has been read into. */
  private readonly views: Array<Buffer | undefined> = Array.from({ length: SLOTS }, () => undefined);
  /** The slot of each recent read (-1: a stopgap buffer) and its length, oldest first. */
  private readonly recent: Array<{ slot: number; bytes: number }> = [];
  private current = 0;
  socket: Socket | undefined;

  /**
   * The memory for the next read: the first slot that holds no unread bytes (reads that piled up
   * while the consumer paused) and that nobody holds, so a download that hands no chunk on reads
   * into one or two slots. When every slot is unread or held, the held one read longest ago is
   * waited for (its holder is another thread that takes the chunks in order: the wait is what
   * keeps the reads from running ahead of it); failing that, the read gets a new small buffer.
   */
  next = (): Buffer => {
    const unread = this.unreadSlots();
    for (let slot = 0; slot < SLOTS; slot++) {
      if (!unread.has(slot) && Atomics.load(this.holds, slot) === 0) return this.use(slot);
    }
    for (const { slot } of this.recent) {
      if (slot >= 0 && !unread.has(slot) && this.waitFree(slot)) return this.use(slot);
    }
    this.current = -1;
    return Buffer.allocUnsafe(STOPGAP_BYTES);
  };

  private use(slot: number): Buffer {
    this.current = slot;
    return (this.views[slot] ??= this.made(slot));
  }

  private made(slot: number): Buffer {
    const memory = new SharedArrayBuffer(SLOT_BYTES);
    slotOf.set(memory, { holds: this.holds, slot });
    return Buffer.from(memory);
  }

  /** Hands the bytes read to the socket's readable side (undici reads them from there). */
  received = (bytes: number, buffer: Uint8Array): boolean => {
    this.recent.push({ slot: this.current, bytes });
    if (this.recent.length > RECENT_READS) this.recent.shift();
    return this.socket!.push(Buffer.from(buffer.buffer, buffer.byteOffset, bytes));
  };

  /**
   * The slots that may still hold bytes the socket has not handed on: those of the newest reads
   * that make up its unread length (every slot, when the reads remembered do not).
   */
  private unreadSlots(): Set<number> {
    const unread = new Set<number>();
    let left = this.socket ? this.socket.readableLength : 0;
    for (let i = this.recent.length - 1; i >= 0 && left > 0; i--) {
      const read = this.recent[i]!;
      unread.add(read.slot);
      left -= read.bytes;
    }
    if (left > 0) for (let slot = 0; slot < SLOTS; slot++) unread.add(slot);
    return unread;
  }

  /** Waits (blocking: the holder is another thread) until `slot` is free; false when it did not come free in time. */
  private waitFree(slot: number): boolean {
    const deadline = systemClock.now() + HELD_WAIT_MS;
    for (let held = Atomics.load(this.holds, slot); held !== 0; held = Atomics.load(this.holds, slot)) {
      const left = deadline - systemClock.now();
      if (left <= 0) return false;
      Atomics.wait(this.holds, slot, held, left);
    }
    return true;
  }
}

/** undici's `connect` for http: origins: a TCP socket reading into reused buffers. */
export const connectReusingBuffers: buildConnector.connector = ({ hostname, port, protocol }, callback) => {
  if (protocol !== 'http:') {
    callback(new Error(`connectReusingBuffers serves http: only, not ${protocol}`), null);
    return;
  }
  const slots = new ReadSlots();
  const portNumber = Number(port) || 80;
  const socket = netConnect({ host: hostname, port: portNumber, onread: { buffer: slots.next, callback: slots.received } });
  slots.socket = socket;
  let pending: typeof callback | null = callback;
  const timer = setTimeout(() => socket.destroy(new ConnectTimeoutError(`connect to ${hostname}:${portNumber} timed out after ${CONNECT_TIMEOUT_MS / 1000} s`)), CONNECT_TIMEOUT_MS);
  socket.setNoDelay(true).setKeepAlive(true, KEEP_ALIVE_DELAY_MS);
  socket
    .once('connect', () => {
      clearTimeout(timer);
      const done = pending;
      pending = null;
      done?.(null, socket);
    })
    .on('error', (err) => {
      clearTimeout(timer);
      const done = pending;
      pending = null;
      done?.(err, null);
    });
};
