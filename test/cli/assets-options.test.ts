// The typed options of `wes assets` (src/commands/assets/upload.ts, download.ts): a malformed media type, an
// empty name and both file flags are usage errors (exit 2) before any request; well-formed values
// reach the upload as given.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useDevServer } from '../helpers/dev-server.js';
import { seenMatching, useTempDir, wesAgainst, writeTemp } from './jobs-env.js';

describe('assets options, declared once', () => {
  const ctx = useDevServer();
  const wes = wesAgainst(() => ctx.server);
  const dir = useTempDir();

  it('refuses a malformed --content-type, an empty --name and --clobber with --skip-existing, sending nothing', async () => {
    const file = writeTemp(dir(), 'some bytes', 'txt');
    const before = seenMatching(ctx.server, /./);
    for (const [args, names] of [
      [['assets', 'upload', file, '--content-type', 'text'], /--content-type <type>.*'text' is invalid.*media type such as image\/png/],
      [['assets', 'upload', file, '--content-type', 'text/plain\nX-Injected: 1'], /--content-type <type>.*media type/],
      [['assets', 'upload', file, '--name', ''], /--name <file-path>.*must not be empty/],
      [['assets', 'download', '00000000-0000-4000-8000-000000000000', join(dir(), 'x'), '--clobber', '--skip-existing'], /cannot be used with option/],
    ] as Array<[string[], RegExp]>) {
      const res = await wes(args);
      expect(res.code, res.stderr).toBe(2);
      expect(res.stderr).toMatch(names);
      expect(res.stdout).toBe('');
    }
    expect(seenMatching(ctx.server, /./)).toBe(before);
  });

  it('well-formed --content-type and --name are recorded as given', async () => {
    const file = writeTemp(dir(), 'mask bytes for the typed options test', 'bin');
    const res = await wes(['assets', 'upload', file, '--content-type', 'image/png', '--name', 'masks/typed.png', '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ content_type: 'image/png', file_path: 'masks/typed.png' });
  });
});
