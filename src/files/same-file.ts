// Whether two names lead to one file: the same path, or a link to it. An output that is its own
// input would replace what it is made from.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';

export function sameFile(a: string, b: string): boolean {
  if (resolve(a) === resolve(b)) return true;
  const [x, y] = [a, b].map((path) => statSync(path, { throwIfNoEntry: false }));
  return x !== undefined && y !== undefined && x.dev === y.dev && x.ino === y.ino;
}
