// Random hex for names that must not be guessed (temp files, set-aside parts), read from the
// kernel's /dev/urandom where there is one: loading node:crypto for it cost a download or a
// `models run -o` 3-11 ms of start-up (its modules are not in Node's start-up snapshot), reading
// 8 bytes from /dev/urandom ~0.3 ms. Elsewhere (Windows) node:crypto gives them.
import { closeSync, openSync, readSync } from 'node:fs';

function fromKernel(bytes: Buffer): boolean {
  let fd: number;
  try {
    fd = openSync('/dev/urandom', 'r');
  } catch {
    return false;
  }
  try {
    for (let at = 0; at < bytes.length; ) {
      const n = readSync(fd, bytes, at, bytes.length - at, null);
      if (n <= 0) return false;
      at += n;
    }
    return true;
  } finally {
    closeSync(fd);
  }
}

/** `count` random bytes as lowercase hex. */
export function randomHex(count: number): string {
  const bytes = Buffer.allocUnsafe(count);
  return fromKernel(bytes) ? bytes.toString('hex') : process.getBuiltinModule('node:crypto').randomBytes(count).toString('hex');
}
