// The v1 binary frame codec, byte by byte against the interface's layout (big-endian uint32s).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  decodeFrame,
  encodeFrame,
  FRAME_PREVIEW_IMAGE,
  FRAME_PREVIEW_IMAGE_WITH_METADATA,
  FRAME_TEXT,
  imageLooksComplete,
} from '../../src/protocol/legacy-frames.js';
import { encodeGradientPng } from '../../src/dev-server/models/stock/png.js';

const png = encodeGradientPng(4, 3, 7);
const jpeg = Uint8Array.of(0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 0xff, 0xd9);

function u32(bytes: Uint8Array, at: number): number {
  return new DataView(bytes.buffer, bytes.byteOffset).getUint32(at, false);
}

describe('encodeFrame', () => {
  it('lays out PREVIEW_IMAGE as type, image_type, bytes', () => {
    const frame = encodeFrame({ type: FRAME_PREVIEW_IMAGE, format: 'png', image: png });
    expect([...frame.subarray(0, 8)]).toEqual([0, 0, 0, 1, 0, 0, 0, 2]);
    expect(Buffer.from(frame.subarray(8)).equals(png)).toBe(true);
    const jpegFrame = encodeFrame({ type: FRAME_PREVIEW_IMAGE, format: 'jpeg', image: jpeg });
    expect([...jpegFrame.subarray(0, 8)]).toEqual([0, 0, 0, 1, 0, 0, 0, 1]);
  });

  it('lays out TEXT as type, node_id_len, node_id, text (UTF-8 byte lengths)', () => {
    const frame = encodeFrame({ type: FRAME_TEXT, nodeId: 'nœud', text: 'step 3/4 ✓' });
    expect(u32(frame, 0)).toBe(3);
    expect(u32(frame, 4)).toBe(Buffer.byteLength('nœud'));
    expect(Buffer.from(frame.subarray(8, 8 + 5)).toString()).toBe('nœud');
    expect(Buffer.from(frame.subarray(13)).toString()).toBe('step 3/4 ✓');
  });

  it('lays out PREVIEW_IMAGE_WITH_METADATA as type, metadata_len, JSON, bytes', () => {
    const metadata = { node_id: '7', display_node_id: '7', real_node_id: '7', prompt_id: 'p-1', parent_node_id: null };
    const frame = encodeFrame({ type: FRAME_PREVIEW_IMAGE_WITH_METADATA, format: 'png', image: png, metadata });
    const len = u32(frame, 4);
    expect(u32(frame, 0)).toBe(4);
    expect(JSON.parse(Buffer.from(frame.subarray(8, 8 + len)).toString())).toEqual(metadata);
    expect(Buffer.from(frame.subarray(8 + len)).equals(png)).toBe(true);
  });
});

describe('decodeFrame', () => {
  it('round-trips every frame type', () => {
    const metadata = { node_id: '3', display_node_id: '3', real_node_id: '3', prompt_id: 'abc', parent_node_id: null };
    const frames = [
      { type: FRAME_PREVIEW_IMAGE, format: 'png', image: png },
      { type: FRAME_PREVIEW_IMAGE, format: 'jpeg', image: jpeg },
      { type: FRAME_TEXT, nodeId: '12', text: 'hello' },
      { type: FRAME_PREVIEW_IMAGE_WITH_METADATA, format: 'png', image: png, metadata },
    ] as const;
    for (const frame of frames) {
      const decoded = decodeFrame(encodeFrame(frame));
      expect(decoded.ok).toBe(true);
      if (!decoded.ok) continue;
      const { image, ...rest } = decoded.frame as { image?: Uint8Array };
      const { image: sent, ...sentRest } = frame as { image?: Uint8Array };
      expect(rest).toEqual(sentRest);
      if (sent) expect(Buffer.from(image!).equals(Buffer.from(sent))).toBe(true);
    }
  });

  it('refuses short, unknown and inconsistent frames with a reason', () => {
    expect(decodeFrame(Uint8Array.of(0, 0, 0, 1))).toEqual({ ok: false, reason: expect.stringContaining('shorter') });
    expect(decodeFrame(Uint8Array.of(0, 0, 0, 9, 0, 0, 0, 0))).toEqual({ ok: false, reason: expect.stringContaining('unknown binary frame type 9') });
    const badImageType = encodeFrame({ type: FRAME_PREVIEW_IMAGE, format: 'png', image: png });
    badImageType[7] = 5;
    expect(decodeFrame(badImageType)).toEqual({ ok: false, reason: 'unknown image_type 5' });
    const mislabelled = encodeFrame({ type: FRAME_PREVIEW_IMAGE, format: 'jpeg', image: png });
    expect(decodeFrame(mislabelled)).toEqual({ ok: false, reason: expect.stringContaining('declared jpeg') });
    const text = encodeFrame({ type: FRAME_TEXT, nodeId: 'abc', text: '' });
    new DataView(text.buffer).setUint32(4, 99, false);
    expect(decodeFrame(text)).toEqual({ ok: false, reason: expect.stringContaining('runs past') });
  });

  it('catches truncated previews of both layouts', () => {
    const plain = encodeFrame({ type: FRAME_PREVIEW_IMAGE, format: 'png', image: png });
    expect(decodeFrame(plain.subarray(0, plain.length - 3))).toEqual({ ok: false, reason: 'png image is truncated' });
    const metadata = { node_id: '3', display_node_id: '3', real_node_id: '3', prompt_id: 'abc', parent_node_id: null };
    const full = encodeFrame({ type: FRAME_PREVIEW_IMAGE_WITH_METADATA, format: 'png', image: png, metadata });
    expect(decodeFrame(full.subarray(0, 20)).ok).toBe(false);
    expect(decodeFrame(full.subarray(0, full.length - 1)).ok).toBe(false);
    expect(imageLooksComplete(jpeg.subarray(0, 5), 'jpeg')).toBe(false);
  });

  it('refuses metadata that is not a JSON object with node_id and prompt_id', () => {
    const withMeta = (json: string): Uint8Array => {
      const meta = Buffer.from(json);
      const head = Buffer.alloc(8);
      head.writeUInt32BE(4, 0);
      head.writeUInt32BE(meta.length, 4);
      return Buffer.concat([head, meta, png]);
    };
    expect(decodeFrame(withMeta('{nope')).ok).toBe(false);
    expect(decodeFrame(withMeta('[1]')).ok).toBe(false);
    expect(decodeFrame(withMeta('{"node_id":1,"prompt_id":"p"}')).ok).toBe(false);
    const minimal = decodeFrame(withMeta('{"node_id":"5","prompt_id":"p"}'));
    expect(minimal.ok && minimal.frame.type === 4 && minimal.frame.metadata).toEqual({
      node_id: '5',
      prompt_id: 'p',
      display_node_id: '5',
      real_node_id: '5',
      parent_node_id: null,
    });
  });

  it('never throws on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.integer({ min: 0, max: 5 }), (bytes, type) => {
        const framed = new Uint8Array(bytes.length + 4);
        new DataView(framed.buffer).setUint32(0, type, false);
        framed.set(bytes, 4);
        const result = decodeFrame(framed);
        expect(typeof result.ok).toBe('boolean');
      }),
    );
  });
});
