// One check of the local file an upload names (src/files/local-file.ts), for `assets upload` (and
// with it the inputs of `jobs submit`) and `legacy upload`: a missing file or a folder is a usage
// error (exit 2) that names the path and the problem, and nothing is sent.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useDevServer } from '../helpers/dev-server.js';
import { seenMatching, useTempDir, wesAgainst } from './jobs-env.js';

describe('the local file of an upload', () => {
  const ctx = useDevServer();
  const wes = wesAgainst(() => ctx.server);
  const dir = useTempDir();

  it('a missing file and a folder are refused the same way by assets upload and legacy upload, before any request', async () => {
    const missing = join(dir(), 'no-such.png');
    const before = seenMatching(ctx.server, /./);
    for (const command of [['assets', 'upload'], ['legacy', 'upload']]) {
      const gone = await wes([...command, missing]);
      expect(gone.code, gone.stderr).toBe(2);
      expect(gone.stderr).toContain(`cannot read ${missing}: no such file`);
      const folder = await wes([...command, dir()]);
      expect(folder.code, folder.stderr).toBe(2);
      expect(folder.stderr).toContain(`cannot upload ${dir()}: it is not a regular file`);
    }
    expect(seenMatching(ctx.server, /./)).toBe(before);
  });
});
