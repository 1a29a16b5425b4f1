// A body held in memory, handed to the connection in 1 MiB slices so that its progress can be told
// (a large workflow takes seconds to send on a slow uplink). Counted as multipart's file reads
// are: a slice counts once the connection asks for the next, afresh on each attempt.
const SLICE_BYTES = 1 << 20;

export function slicedBody(bytes: Buffer, onBytes: (sent: number) => void): () => AsyncIterable<Buffer> {
  return async function* slices() {
    for (let at = 0; at < bytes.length; at += SLICE_BYTES) {
      const end = Math.min(at + SLICE_BYTES, bytes.length);
      yield bytes.subarray(at, end);
      onBytes(end);
    }
  };
}
