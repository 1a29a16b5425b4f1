// Plain-TCP connections for downloads whose chunks are taken synchronously (ChunkedBody): each
// socket reads into two 1 MiB buffers it reuses (net's `onread`) instead of a fresh 64 KiB buffer
// per read. 16x fewer reads, each one a parse and a hand-over, and no garbage per read, so a
// download's memory stays flat whatever its size rather than growing until V8 collects buffers.
// A buffer goes back to the kernel only when nothing of it is left unread in the socket (undici
// puts back what it has not parsed when the consumer pauses); otherwise that read gets a new one.
// TLS keeps undici's own connector: this is the loopback and LAN case, where the CPU is the limit.
import { connect as netConnect, type Socket } from 'node:net';
import type { buildConnector } from 'undici';
import { ConnectTimeoutError } from './undici-core.js';

const READ_BUFFER_BYTES = 1 << 20;
/** What a read gets while the other buffer still holds unread bytes (Node's own read size). */
const STOPGAP_BYTES = 64 * 1024;
const CONNECT_TIMEOUT_MS = 10_000;
const KEEP_ALIVE_DELAY_MS = 60_000;

/** The pair of read buffers of one socket, handed to libuv in turn. */
class ReadBuffers {
  private readonly buffers = [Buffer.allocUnsafe(READ_BUFFER_BYTES), Buffer.allocUnsafe(READ_BUFFER_BYTES)];
  private current = 0;
  private lastRead = 0;
  socket: Socket | undefined;

  /**
   * The buffer for the next read: the other one, unless bytes of it still wait unread in the
   * socket (reads that piled up while the consumer paused); then a new small one, left to those
   * bytes, and a full-size one again once that slot is free.
   */
  next = (): Buffer => {
    const other = this.current ^ 1;
    const waiting = this.socket ? this.socket.readableLength - this.lastRead : 0;
    if (waiting > 0) this.buffers[other] = Buffer.allocUnsafe(STOPGAP_BYTES);
    else if (this.buffers[other]!.length < READ_BUFFER_BYTES) this.buffers[other] = Buffer.allocUnsafe(READ_BUFFER_BYTES);
    this.current = other;
    return this.buffers[other]!;
  };

  /** Hands the bytes read to the socket's readable side (undici reads them from there). */
  received = (bytes: number, buffer: Uint8Array): boolean => {
    this.lastRead = bytes;
    return this.socket!.push(Buffer.from(buffer.buffer, buffer.byteOffset, bytes));
  };
}

/** undici's `connect` for http: origins: a TCP socket reading into reused buffers. */
export const connectReusingBuffers: buildConnector.connector = ({ hostname, port, protocol }, callback) => {
  if (protocol !== 'http:') {
    callback(new Error(`connectReusingBuffers serves http: only, not ${protocol}`), null);
    return;
  }
  const buffers = new ReadBuffers();
  const portNumber = Number(port) || 80;
  const socket = netConnect({ host: hostname, port: portNumber, onread: { buffer: buffers.next, callback: buffers.received } });
  buffers.socket = socket;
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
