// Binary WebSocket frames of the cloud API v1, from the service interface, "Events", "C. WebSocket
// messages" (the binary frame table): encoded by the dev-server and decoded by the client with
// this one module, and pinned byte by byte by test/unit/protocol-golden.test.ts against
// test/fixtures/protocol/legacy-frames.json. All integers are big-endian uint32.
//
//   1 PREVIEW_IMAGE                type | image_type (1 JPEG, 2 PNG) | image bytes
//   3 TEXT                         type | node_id_len | node_id (UTF-8) | text (UTF-8)
//   4 PREVIEW_IMAGE_WITH_METADATA  type | metadata_len | metadata JSON (UTF-8) | image bytes
//
// The decoder treats every byte as untrusted: it never throws, and reports why a frame was refused.

export const FRAME_PREVIEW_IMAGE = 1;
export const FRAME_TEXT = 3;
export const FRAME_PREVIEW_IMAGE_WITH_METADATA = 4;

export const IMAGE_TYPE_JPEG = 1;
export const IMAGE_TYPE_PNG = 2;

export type ImageFormat = 'jpeg' | 'png';

export interface PreviewMetadata {
  node_id: string;
  display_node_id: string;
  real_node_id: string;
  prompt_id: string;
  parent_node_id: string | null;
  /** Media type; the local engine adds it, the interface does not require it. */
  image_type?: string;
}

export type BinaryFrame =
  | { type: typeof FRAME_PREVIEW_IMAGE; format: ImageFormat; image: Uint8Array }
  | { type: typeof FRAME_TEXT; nodeId: string; text: string }
  | { type: typeof FRAME_PREVIEW_IMAGE_WITH_METADATA; metadata: PreviewMetadata; format: ImageFormat; image: Uint8Array };

export type DecodeResult = { ok: true; frame: BinaryFrame } | { ok: false; reason: string };

const HEADER = 8;
/** Metadata and node ids are small; a bigger length field means a corrupt frame. */
const MAX_METADATA_BYTES = 64 * 1024;

const PNG_SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
const PNG_IEND_TRAILER = Uint8Array.of(0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82);

function header(type: number, second: number): Uint8Array {
  const head = new Uint8Array(HEADER);
  const view = new DataView(head.buffer);
  view.setUint32(0, type, false);
  view.setUint32(4, second, false);
  return head;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const total = parts.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

export function encodeFrame(frame: BinaryFrame): Uint8Array {
  const utf8 = new TextEncoder();
  switch (frame.type) {
    case FRAME_PREVIEW_IMAGE:
      return concat([header(FRAME_PREVIEW_IMAGE, frame.format === 'png' ? IMAGE_TYPE_PNG : IMAGE_TYPE_JPEG), frame.image]);
    case FRAME_TEXT: {
      const node = utf8.encode(frame.nodeId);
      return concat([header(FRAME_TEXT, node.length), node, utf8.encode(frame.text)]);
    }
    case FRAME_PREVIEW_IMAGE_WITH_METADATA: {
      const meta = utf8.encode(JSON.stringify(frame.metadata));
      return concat([header(FRAME_PREVIEW_IMAGE_WITH_METADATA, meta.length), meta, frame.image]);
    }
  }
}

function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  if (bytes.length < prefix.length) return false;
  return prefix.every((b, i) => bytes[i] === b);
}

function endsWith(bytes: Uint8Array, suffix: Uint8Array): boolean {
  if (bytes.length < suffix.length) return false;
  const from = bytes.length - suffix.length;
  return suffix.every((b, i) => bytes[from + i] === b);
}

/** The format the bytes really are, judged by their magic number; null for anything else. */
export function sniffImage(bytes: Uint8Array): ImageFormat | null {
  if (startsWith(bytes, PNG_SIGNATURE)) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  return null;
}

/** A cut-off image lacks its end marker (PNG IEND chunk, JPEG EOI): how truncation is caught. */
export function imageLooksComplete(bytes: Uint8Array, format: ImageFormat): boolean {
  if (format === 'png') return startsWith(bytes, PNG_SIGNATURE) && endsWith(bytes, PNG_IEND_TRAILER);
  return sniffImage(bytes) === 'jpeg' && bytes.length >= 4 && bytes[bytes.length - 2] === 0xff && bytes[bytes.length - 1] === 0xd9;
}

function checkImage(image: Uint8Array, declared: ImageFormat | null): { ok: true; format: ImageFormat } | { ok: false; reason: string } {
  const actual = sniffImage(image);
  if (!actual) return { ok: false, reason: 'image bytes are neither PNG nor JPEG' };
  if (declared && declared !== actual) return { ok: false, reason: `image declared ${declared} but bytes are ${actual}` };
  if (!imageLooksComplete(image, actual)) return { ok: false, reason: `${actual} image is truncated` };
  return { ok: true, format: actual };
}

// One decoder for every frame (a follower decodes two strings per TEXT frame, tens of thousands a
// prompt): without `stream`, each decode() starts afresh, also after a refused one.
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }); // a leading U+FEFF is text too

function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return UTF8.decode(bytes);
  } catch {
    return null;
  }
}

function optionalString(value: unknown): value is string | null | undefined {
  return value === undefined || value === null || typeof value === 'string';
}

function parseMetadata(bytes: Uint8Array): PreviewMetadata | string {
  const text = decodeUtf8(bytes);
  if (text === null) return 'metadata is not UTF-8';
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'metadata is not JSON';
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'metadata is not an object';
  const m = value as Record<string, unknown>;
  if (typeof m.node_id !== 'string' || typeof m.prompt_id !== 'string') return 'metadata lacks node_id or prompt_id';
  for (const key of ['display_node_id', 'real_node_id', 'parent_node_id', 'image_type'] as const) {
    if (!optionalString(m[key])) return `metadata ${key} is not a string`;
  }
  return {
    node_id: m.node_id,
    prompt_id: m.prompt_id,
    display_node_id: (m.display_node_id as string | undefined | null) ?? m.node_id,
    real_node_id: (m.real_node_id as string | undefined | null) ?? m.node_id,
    parent_node_id: (m.parent_node_id as string | undefined | null) ?? null,
    ...(typeof m.image_type === 'string' ? { image_type: m.image_type } : {}),
  };
}

function formatFromMediaType(mediaType: string | undefined): ImageFormat | null {
  if (mediaType === 'image/png') return 'png';
  if (mediaType === 'image/jpeg') return 'jpeg';
  return null;
}

export function decodeFrame(data: Uint8Array): DecodeResult {
  if (data.length < HEADER) return { ok: false, reason: `frame of ${data.length} bytes is shorter than its 8-byte header` };
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const type = view.getUint32(0, false);
  const second = view.getUint32(4, false);
  const rest = data.subarray(HEADER);
  switch (type) {
    case FRAME_PREVIEW_IMAGE: {
      const declared = second === IMAGE_TYPE_PNG ? 'png' : second === IMAGE_TYPE_JPEG ? 'jpeg' : null;
      if (!declared) return { ok: false, reason: `unknown image_type ${second}` };
      const image = checkImage(rest, declared);
      if (!image.ok) return image;
      return { ok: true, frame: { type: FRAME_PREVIEW_IMAGE, format: image.format, image: rest } };
    }
    case FRAME_TEXT: {
      if (second > rest.length) return { ok: false, reason: `node_id_len ${second} runs past the frame end` };
      if (second > MAX_METADATA_BYTES) return { ok: false, reason: `node_id_len ${second} is implausibly large` };
      const nodeId = decodeUtf8(rest.subarray(0, second));
      const text = decodeUtf8(rest.subarray(second));
      if (nodeId === null || text === null) return { ok: false, reason: 'text frame is not UTF-8' };
      return { ok: true, frame: { type: FRAME_TEXT, nodeId, text } };
    }
    case FRAME_PREVIEW_IMAGE_WITH_METADATA: {
      if (second > rest.length) return { ok: false, reason: `metadata_len ${second} runs past the frame end` };
      if (second > MAX_METADATA_BYTES) return { ok: false, reason: `metadata_len ${second} is implausibly large` };
      const metadata = parseMetadata(rest.subarray(0, second));
      if (typeof metadata === 'string') return { ok: false, reason: metadata };
      const bytes = rest.subarray(second);
      const image = checkImage(bytes, formatFromMediaType(metadata.image_type));
      if (!image.ok) return image;
      return { ok: true, frame: { type: FRAME_PREVIEW_IMAGE_WITH_METADATA, metadata, format: image.format, image: bytes } };
    }
    default:
      return { ok: false, reason: `unknown binary frame type ${type}` };
  }
}
