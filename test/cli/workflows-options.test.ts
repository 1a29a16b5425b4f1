// The typed options of `wes workflows` (src/commands/workflows/convert.ts, validate.ts): --object-info (offline)
// and --refresh (ask the server again) exclude each other, and empty file names are refused, all
// before any request; a well-formed -o writes the file.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { imageWorkflow, useDevServer } from '../helpers/dev-server.js';
import { seenMatching, useTempDir, wesAgainst, writeTemp } from './jobs-env.js';

describe('workflows options, declared once', () => {
  const ctx = useDevServer();
  const wes = wesAgainst(() => ctx.server);
  const dir = useTempDir();

  it('refuses --object-info with --refresh, and empty file names, sending nothing', async () => {
    const flow = writeTemp(dir(), imageWorkflow());
    const before = seenMatching(ctx.server, /./);
    for (const [args, names] of [
      [['workflows', 'convert', flow, '--object-info', 'oi.json', '--refresh'], /'--object-info <file>' cannot be used with option '--refresh'/],
      [['workflows', 'validate', flow, '--refresh', '--object-info', 'oi.json'], /cannot be used with option/],
      [['workflows', 'convert', flow, '-o', ''], /--output <file>.*must not be empty/],
      [['workflows', 'validate', flow, '--object-info', ''], /--object-info <file>.*must not be empty/],
    ] as Array<[string[], RegExp]>) {
      const res = await wes(args);
      expect(res.code, res.stderr).toBe(2);
      expect(res.stderr).toMatch(names);
      expect(res.stderr).toMatch(/hint: .*see `wes workflows (convert|validate) --help`/);
      expect(res.stdout).toBe('');
    }
    expect(seenMatching(ctx.server, /./)).toBe(before);
  });

  it('-o naming the workflow being converted is refused before anything is read from the server; the file stays', async () => {
    const ui = join(dir(), 'ui.json');
    const text = '{"last_node_id":0,"last_link_id":0,"nodes":[],"links":[]}';
    writeFileSync(ui, text);
    const before = seenMatching(ctx.server, /./);
    const res = await wes(['workflows', 'convert', ui, '-o', ui]);
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toMatch(/-o .*ui\.json is the workflow being converted/);
    expect(readFileSync(ui, 'utf8')).toBe(text);
    expect(seenMatching(ctx.server, /./)).toBe(before);
  });

  it('well-formed options run: -o writes the file; --refresh asks the server for its definitions', async () => {
    const flow = writeTemp(dir(), imageWorkflow());
    const out = join(dir(), 'api.json');
    const converted = await wes(['workflows', 'convert', flow, '-o', out]);
    expect(converted.code, converted.stderr).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(imageWorkflow());
    const asked = seenMatching(ctx.server, /object_info/);
    const valid = await wes(['workflows', 'validate', flow, '--refresh']);
    expect(valid.code, valid.stderr).toBe(0);
    expect(seenMatching(ctx.server, /object_info/)).toBe(asked + 1);
  });
});
