// The v1 WebSocket `/ws`. On the cloud deployments every connection of the (single) dev user gets
// every message; previews go out as type-4 frames to connections that asked for metadata
// (`feature_flags`, as the local engine negotiates it) and as type-1 frames otherwise. The
// self-hosted deployment routes as an engine does (self-hosted/messages.ts): a prompt's messages
// to the client that submitted it, by its client id; 0.3.64 answers a first `feature_flags`
// message and then sends that client's previews as type 4, ahead of the step's `progress`.
//
// Faults scripted for `GET /ws` apply to the next handshake:
//   status    refuse the handshake with that status (and body)
//   delay     hold the handshake delay_ms, then accept
//   drop      no after_bytes: cut the connection before the handshake; with after_bytes: accept,
//             then cut the connection abruptly once that many payload bytes were sent
//   truncate  accept; the next preview frame is cut short (to after_bytes, default half)
//   corrupt   accept; the next binary frame goes out with an unknown frame type
//   stall     accept, then send nothing more
import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket, type RawData } from 'ws';
import type { DevState, EngineEvent, FaultSpec } from '../contract.js';
import { encodeFrame, FRAME_PREVIEW_IMAGE, FRAME_PREVIEW_IMAGE_WITH_METADATA, FRAME_TEXT } from '../../protocol/legacy-frames.js';
import { newRequestId, parseTarget } from '../core/context.js';
import { headerName } from '../core/names.js';
import { checkLegacyCredential } from './access.js';
import { V1MessageMapper } from './messages.js';
import { EngineMessageOrder, type RoutedItem } from '../self-hosted/messages.js';
import { ENGINE_WS_PATH } from '../self-hosted/paths.js';
import { plainStatusText } from '../self-hosted/plain.js';
import { ENGINE_FEATURES, engineTraits } from '../self-hosted/version.js';

interface Connection {
  ws: WebSocket;
  /** The `clientId` of the handshake: what a self-hosted engine routes a prompt's messages by. */
  clientId: string;
  wantsMetadata: boolean;
  /** Whether the client has sent anything yet (an engine honours `feature_flags` as the first message only). */
  spoke: boolean;
  /** A step's `progress`, held until its type-4 preview has gone out (an engine sends the preview first). */
  held?: string;
  sentBytes: number;
  dropAfterBytes?: number;
  truncateNext?: number | 'half';
  corruptNext?: boolean;
  stalled?: boolean;
}

const WS_PATH = /^(?:\/deployment\/[^/]+)?\/ws\/?$/;
/** A client only ever sends small control messages. */
const MAX_CLIENT_MESSAGE = 64 * 1024;
const CORRUPT_FRAME_TYPE = 0x7f7f7f7f;

/** Answers an upgrade with a plain HTTP response and closes the socket. */
function endRaw(socket: Duplex, status: number, contentType: string, text: string, headers: Array<[string, string]>): void {
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    `Content-Type: ${contentType}`,
    `Content-Length: ${Buffer.byteLength(text)}`,
    'Connection: close',
    ...headers.map(([name, value]) => `${name}: ${value}`),
  ];
  socket.end(`${lines.join('\r\n')}\r\n\r\n${text}`);
}

function refuse(state: DevState, socket: Duplex, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body ?? { error: { type: 'refused', message: STATUS_CODES[status] ?? '' } });
  endRaw(socket, status, 'application/json; charset=utf-8', text, [[headerName(state, 'requestId'), newRequestId()], ...Object.entries(headers)]);
}

/** How the engine's aiohttp server refuses an upgrade, no request id: the static route's empty 404, else its plain-text page (see self-hosted/plain.ts). */
function refusePlain(socket: Duplex, status: number): void {
  if (status === 404) endRaw(socket, 404, 'application/octet-stream', '', []);
  else endRaw(socket, status, 'text/plain; charset=utf-8', plainStatusText(status), []);
}

function faultHeaders(fault: FaultSpec): Record<string, string> {
  return { ...(fault.headers ?? {}), ...(fault.retry_after !== undefined ? { 'Retry-After': String(fault.retry_after) } : {}) };
}

export function attachLegacyWebSocket(server: Server, state: DevState): { close(): void } {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_MESSAGE });
  // A self-hosted engine speaks its own order, sends only type-1 previews and serves /api/ws too.
  const selfHosted = state.options.deployment === 'self-hosted';
  const mapper = selfHosted ? new EngineMessageOrder(state.engine, engineTraits(state)) : new V1MessageMapper(state.engine);
  const negotiates = selfHosted ? engineTraits(state).featureFlags : true;
  const wsPath = selfHosted ? ENGINE_WS_PATH : WS_PATH;
  const connections = new Set<Connection>();

  function send(conn: Connection, data: string | Uint8Array): void {
    if (conn.stalled || conn.ws.readyState !== conn.ws.OPEN) return;
    conn.ws.send(data, { binary: typeof data !== 'string' });
    conn.sentBytes += typeof data === 'string' ? Buffer.byteLength(data) : data.length;
    if (conn.dropAfterBytes !== undefined && conn.sentBytes >= conn.dropAfterBytes) {
      // An abrupt loss, not a close handshake: what a client sees when a network path dies.
      conn.ws.terminate();
    }
  }

  /** Type 4 where the connection asked for it; an engine sends a client-less prompt's previews as type 1 to everyone. */
  function metadataFor(conn: Connection, item: RoutedItem): boolean {
    return conn.wantsMetadata && (!selfHosted || typeof item.to === 'string');
  }

  function binaryFor(conn: Connection, item: Exclude<RoutedItem, { kind: 'json' }>): Uint8Array {
    let frame: Uint8Array;
    if (item.kind === 'text') {
      frame = encodeFrame({ type: FRAME_TEXT, nodeId: item.node, text: item.text });
    } else if (metadataFor(conn, item)) {
      frame = encodeFrame({
        type: FRAME_PREVIEW_IMAGE_WITH_METADATA,
        format: item.format,
        image: item.bytes,
        metadata: {
          node_id: item.node,
          display_node_id: item.node,
          real_node_id: item.node,
          prompt_id: item.promptId,
          parent_node_id: null,
          image_type: item.format === 'png' ? 'image/png' : 'image/jpeg',
        },
      });
    } else {
      frame = encodeFrame({ type: FRAME_PREVIEW_IMAGE, format: item.format, image: item.bytes });
    }
    if (conn.corruptNext) {
      conn.corruptNext = false;
      frame = Uint8Array.from(frame);
      new DataView(frame.buffer).setUint32(0, CORRUPT_FRAME_TYPE, false);
    }
    if (conn.truncateNext !== undefined && item.kind === 'preview') {
      const keep = conn.truncateNext === 'half' ? Math.floor(frame.length / 2) : Math.min(conn.truncateNext, frame.length);
      conn.truncateNext = undefined;
      frame = frame.subarray(0, keep);
    }
    return frame;
  }

  function flushHeld(conn: Connection): void {
    const held = conn.held;
    conn.held = undefined;
    if (held !== undefined) send(conn, held);
  }

  /** An engine's type-4 client gets a step's preview before its `progress`: that message waits for it (a step without one lets it go on the next turn). */
  function holdsProgress(conn: Connection, item: RoutedItem): boolean {
    return selfHosted && item.kind === 'json' && item.message.type === 'progress' && metadataFor(conn, item);
  }

  function deliver(items: RoutedItem[]): void {
    for (const item of items) {
      if (item.to === null) continue;
      const text = item.kind === 'json' ? JSON.stringify(item.message) : null;
      for (const conn of connections) {
        if (typeof item.to === 'string' && conn.clientId !== item.to) continue;
        if (text === null) {
          send(conn, binaryFor(conn, item as Exclude<RoutedItem, { kind: 'json' }>));
          flushHeld(conn);
        } else if (holdsProgress(conn, item)) {
          flushHeld(conn);
          conn.held = text;
          setImmediate(() => flushHeld(conn));
        } else {
          flushHeld(conn);
          send(conn, text);
        }
      }
    }
  }

  const onJob = (jobId: string, event: EngineEvent): void => {
    const items = mapper.map(jobId, event); // the mapper keeps each prompt's state, heard or not
    // No socket open (a jobs API run): nothing to write each message out for.
    if (connections.size > 0) deliver(items);
  };

  function accept(req: IncomingMessage, socket: Duplex, head: Buffer, url: URL, fault: FaultSpec | undefined): void {
    wss.handleUpgrade(req, socket, head, (ws) => {
      const conn: Connection = { ws, clientId: url.searchParams.get('clientId') ?? '', wantsMetadata: false, spoke: false, sentBytes: 0 };
      if (fault?.action === 'drop' && fault.after_bytes !== undefined) conn.dropAfterBytes = fault.after_bytes;
      if (fault?.action === 'truncate') conn.truncateNext = fault.after_bytes ?? 'half';
      if (fault?.action === 'corrupt') conn.corruptNext = true;
      connections.add(conn);
      ws.on('close', () => connections.delete(conn));
      ws.on('error', () => connections.delete(conn));
      ws.on('message', (data: RawData, isBinary: boolean) => {
        const first = !conn.spoke;
        conn.spoke = true;
        if (isBinary || !negotiates || (selfHosted && !first)) return;
        try {
          const message = JSON.parse(data.toString()) as { type?: unknown; data?: { supports_preview_metadata?: unknown } };
          if (message.type !== 'feature_flags') return;
          conn.wantsMetadata = message.data?.supports_preview_metadata === true;
          if (selfHosted) send(conn, JSON.stringify({ type: 'feature_flags', data: ENGINE_FEATURES }));
        } catch {
          // a client's stray text is not our concern
        }
      });
      send(conn, JSON.stringify(mapper.statusMessage(undefined, conn.clientId)));
      if (fault?.action === 'stall') conn.stalled = true;
    });
  }

  const refuseAs = (socket: Duplex, status: number, body: unknown): void => (selfHosted ? refusePlain(socket, status) : refuse(state, socket, status, body));
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const url = parseTarget(req.url);
    if (!url) {
      refuseAs(socket, 400, { error: { type: 'invalid_request', message: 'the request target is not a valid URL' } });
      return;
    }
    if (!wsPath.test(url.pathname)) {
      refuseAs(socket, 404, { error: { type: 'not_found', message: `no WebSocket at ${url.pathname}` } });
      return;
    }
    state.requestCounts.set('GET /ws', (state.requestCounts.get('GET /ws') ?? 0) + 1);
    const fault = state.faults.take('GET', '/ws');
    if (fault?.action === 'status') {
      refuse(state, socket, fault.status ?? 500, fault.body, faultHeaders(fault));
      return;
    }
    if (fault?.action === 'drop' && fault.after_bytes === undefined) {
      socket.destroy();
      return;
    }
    const verdict = checkLegacyCredential(state, url.searchParams.get('token'));
    if (verdict !== 'ok') {
      const status = verdict === 'forbidden' ? 403 : 401;
      refuseAs(socket, status, { error: { type: verdict, message: verdict === 'forbidden' ? 'this key may not open the WebSocket' : 'invalid or missing token' } });
      return;
    }
    const delay = fault?.action === 'delay' ? (fault.delay_ms ?? 0) : 0;
    if (delay > 0) setTimeout(() => accept(req, socket, head, url, fault), delay);
    else accept(req, socket, head, url, fault);
  };

  server.on('upgrade', onUpgrade);
  state.engine.events.on('job', onJob);
  return {
    close(): void {
      server.off('upgrade', onUpgrade);
      state.engine.events.off('job', onJob);
      for (const conn of connections) conn.ws.terminate();
      connections.clear();
      wss.close();
    },
  };
}
