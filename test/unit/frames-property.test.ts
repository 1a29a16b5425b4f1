// Properties of the v1 binary frame codec (src/protocol/legacy-frames.ts): every frame survives an
// encode/decode round trip byte for byte, arbitrary bytes never make the decoder throw, anything
// it accepts encodes back to the very same bytes, and a cut-off image is never accepted.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  decodeFrame,
  encodeFrame,
  FRAME_PREVIEW_IMAGE,
  FRAME_PREVIEW_IMAGE_WITH_METADATA,
  FRAME_TEXT,
  type BinaryFrame,
  type ImageFormat,
} from '../../src/protocol/legacy-frames.js';

const PNG_HEAD = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const PNG_TAIL = [0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82];

/** Bytes that look like a whole image of the format (magic number first, end marker last). */
const image = (format: ImageFormat) =>
  fc.uint8Array({ maxLength: 300 }).map((middle) =>
    Uint8Array.from(format === 'png' ? [...PNG_HEAD, ...middle, ...PNG_TAIL] : [0xff, 0xd8, 0xff, ...middle, 0xff, 0xd9]),
  );
const format = fc.constantFrom<ImageFormat>('png', 'jpeg');
const text = fc.string({ unit: 'grapheme', maxLength: 80 });

const previewFrame = format.chain((f) => image(f).map((img): BinaryFrame => ({ type: FRAME_PREVIEW_IMAGE, format: f, image: img })));
const textFrame = fc.record({ nodeId: text, text }).map((t): BinaryFrame => ({ type: FRAME_TEXT, ...t }));
const metadataFrame = format.chain((f) =>
  fc
    .record({
      node_id: text,
      display_node_id: text,
      real_node_id: text,
      prompt_id: text,
      parent_node_id: fc.option(text, { nil: null }),
      typed: fc.boolean(),
      image: image(f),
    })
    .map(({ typed, image: img, ...meta }): BinaryFrame => ({
      type: FRAME_PREVIEW_IMAGE_WITH_METADATA,
      metadata: typed ? { ...meta, image_type: f === 'png' ? 'image/png' : 'image/jpeg' } : meta,
      format: f,
      image: img,
    })),
);
const anyFrame = fc.oneof(previewFrame, textFrame, metadataFrame);

/** Random bytes, mostly behind a plausible header so every branch of the decoder is reached. */
const hostileBytes = fc.oneof(
  fc.uint8Array({ maxLength: 64 }),
  fc
    .tuple(
      fc.constantFrom(1, 3, 4, 2, 0xffffffff),
      fc.oneof(fc.integer({ min: 0, max: 40 }), fc.constantFrom(0xffffffff, 65_537)),
      fc.constantFrom([], PNG_HEAD, [0xef, 0xbb, 0xbf]),
      fc.uint8Array({ maxLength: 120 }),
    )
    .map(([type, second, lead, rest]) => {
      const head = new Uint8Array(8);
      new DataView(head.buffer).setUint32(0, type);
      new DataView(head.buffer).setUint32(4, second);
      return Uint8Array.from([...head, ...lead, ...rest]);
    }),
);

describe('binary frames (properties)', () => {
  it('decode(encode(frame)) is the frame', () => {
    fc.assert(
      fc.property(anyFrame, (frame) => {
        const decoded = decodeFrame(encodeFrame(frame));
        expect(decoded).toEqual({ ok: true, frame });
      }),
      { numRuns: 800 },
    );
  });

  it('never throws on arbitrary bytes, and what it accepts encodes back to the same bytes', () => {
    fc.assert(
      fc.property(hostileBytes, (bytes) => {
        const decoded = decodeFrame(bytes);
        if (!decoded.ok) expect(decoded.reason).toMatch(/\S/);
        else expect(Buffer.from(encodeFrame(decoded.frame)).equals(Buffer.from(bytes))).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('a PNG preview cut short anywhere is refused', () => {
    const pngFrame = fc.oneof(
      image('png').map((img): BinaryFrame => ({ type: FRAME_PREVIEW_IMAGE, format: 'png', image: img })),
      metadataFrame.filter((f) => f.type === FRAME_PREVIEW_IMAGE_WITH_METADATA && f.format === 'png'),
    );
    fc.assert(
      fc.property(pngFrame, fc.integer({ min: 1, max: 400 }), (frame, cut) => {
        const bytes = encodeFrame(frame);
        const cutAt = Math.max(0, bytes.length - cut);
        expect(decodeFrame(bytes.subarray(0, cutAt)).ok).toBe(false);
      }),
      { numRuns: 800 },
    );
  });

  it('a text frame whose node id or text starts with a byte order mark keeps it', () => {
    const frame: BinaryFrame = { type: FRAME_TEXT, nodeId: '\ufeff7', text: '\ufeffstep 1' };
    expect(decodeFrame(encodeFrame(frame))).toEqual({ ok: true, frame });
  });
});
