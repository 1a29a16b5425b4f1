// TEXT frames are decoded with one shared UTF-8 decoder: a frame refused for bad UTF-8 must not
// leave state behind for the next one, and a leading U+FEFF stays part of the text.
import { describe, expect, it } from 'vitest';
import { decodeFrame, encodeFrame, FRAME_TEXT } from '../../src/protocol/legacy-frames.js';

function textFrame(nodeId: Uint8Array, text: Uint8Array): Uint8Array {
  const head = new Uint8Array(8);
  new DataView(head.buffer).setUint32(0, FRAME_TEXT, false);
  new DataView(head.buffer).setUint32(4, nodeId.length, false);
  return Buffer.concat([head, nodeId, text]);
}

describe('decodeFrame with a shared decoder', () => {
  it('decodes a good frame right after one refused mid-character', () => {
    const cut = textFrame(Buffer.from('7'), Buffer.from([0x61, 0xe2, 0x82])); // "a" and two bytes of "€"
    expect(decodeFrame(cut)).toEqual({ ok: false, reason: 'text frame is not UTF-8' });
    const good = encodeFrame({ type: FRAME_TEXT, nodeId: '7', text: '€ step 2/3' });
    expect(decodeFrame(good)).toEqual({ ok: true, frame: { type: FRAME_TEXT, nodeId: '7', text: '€ step 2/3' } });
  });

  it('keeps a leading byte-order mark as text, frame after frame', () => {
    for (let i = 0; i < 3; i++) {
      const frame = encodeFrame({ type: FRAME_TEXT, nodeId: 'n', text: '\ufeffhello' });
      expect(decodeFrame(frame)).toEqual({ ok: true, frame: { type: FRAME_TEXT, nodeId: 'n', text: '\ufeffhello' } });
    }
  });
});
