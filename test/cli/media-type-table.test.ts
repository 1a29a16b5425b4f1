// The client has one table of media types by extension (src/files/media-type.ts): an asset upload
// is labelled from it, and a file given to a model's binary field with no declared type becomes a
// data URI of the same type. There were two tables, and they disagreed: a .ogg or .pdf went to a
// model as audio/ogg or application/pdf but was uploaded as application/octet-stream.
// (The dev-server keeps its own table on purpose: it is an independent implementation.)
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildInput } from '../../src/clients/models/input.js';
import { guessMediaType } from '../../src/files/media-type.js';
import { useDevServer } from '../helpers/dev-server.js';
import { useTempDir, wesAgainst } from './jobs-env.js';

const doc = {
  paths: { '/m': { post: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Input' } } } } } } },
  components: { schemas: { Input: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } } } },
};

const NAMES: Array<[string, string]> = [
  ['clip.ogg', 'audio/ogg'],
  ['paper.pdf', 'application/pdf'],
  ['CAT.PNG', 'image/png'],
  ['take.mp3', 'audio/mpeg'],
  ['weights.safetensors', 'application/octet-stream'],
  ['notes.unknown-ext', 'application/octet-stream'],
];

describe('one media-type table on the client', () => {
  const ctx = useDevServer();
  const wes = wesAgainst(() => ctx.server);
  const dir = useTempDir();

  it.each(NAMES)('%s is %s', (name, type) => {
    expect(guessMediaType(name)).toBe(type);
  });

  it('a model input file and an asset upload of the same file carry the same type', async () => {
    for (const [name, type] of NAMES) {
      const path = join(dir(), name);
      writeFileSync(path, `bytes of ${name}`);
      const built = await buildInput({ pairs: [`file=@${path}`], doc });
      expect(built.value.file, name).toBe(`data:${type};base64,${Buffer.from(`bytes of ${name}`).toString('base64')}`);
      const res = await wes(['assets', 'upload', path, '--json']);
      expect(res.code, res.stderr).toBe(0);
      expect(JSON.parse(res.stdout).content_type, name).toBe(type);
    }
  });
});
