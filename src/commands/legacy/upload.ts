// wes legacy upload <file> [--type input|temp] [--overwrite] [--mask --original FILE_REF]
import { stat } from 'node:fs/promises';
import type { Factory } from '../../factory.js';
import { UsageError } from '../../errors.js';
import { isRecord } from '../../clients/legacy/client.js';
import { sanitizeLine } from '../../render/sanitize.js';
import { legacyClient } from './shared.js';

const TYPES = ['input', 'temp'] as const;

/** FILE_REF is the JSON object `{filename, subfolder, type}`, or just a file name (an input upload). */
export function parseOriginalRef(raw: string): { filename: string; subfolder: string; type: string } {
  const trimmed = raw.trim();
  if (!trimmed.startsWith('{')) {
    if (!trimmed) throw new UsageError('--original needs the original image: a file name or {"filename":…,"subfolder":…,"type":…}');
    return { filename: trimmed, subfolder: '', type: 'input' };
  }
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch (err) {
    throw new UsageError(`--original is not valid JSON: ${(err as Error).message}`, 'pass --original \'{"filename":"photo.png","subfolder":"","type":"input"}\'');
  }
  if (!isRecord(value) || typeof value.filename !== 'string' || value.filename === '') {
    throw new UsageError('--original must be a JSON object with a non-empty "filename"');
  }
  for (const key of ['subfolder', 'type'] as const) {
    if (value[key] !== undefined && typeof value[key] !== 'string') throw new UsageError(`--original "${key}" must be a string`);
  }
  return { filename: value.filename, subfolder: (value.subfolder as string | undefined) ?? '', type: (value.type as string | undefined) ?? 'input' };
}

async function checkFile(path: string): Promise<void> {
  const info = await stat(path).catch((err: NodeJS.ErrnoException) => {
    throw new UsageError(`cannot read ${path}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`);
  });
  if (!info.isFile()) throw new UsageError(`cannot upload ${path}: it is not a regular file`);
}

export async function run(f: Factory, args: string[], opts: Record<string, unknown>): Promise<number> {
  const path = args[0]!;
  const type = (opts.type as string | undefined) ?? 'input';
  if (!(TYPES as readonly string[]).includes(type)) throw new UsageError(`--type must be input or temp, got ${type}`);
  if (opts.mask && typeof opts.original !== 'string') throw new UsageError('--mask needs --original FILE_REF (the image the mask belongs to)');
  if (!opts.mask && opts.original !== undefined) throw new UsageError('--original only applies with --mask');
  if (opts.mask && opts.overwrite) throw new UsageError('--overwrite does not apply to --mask uploads');
  const originalRef = opts.mask ? parseOriginalRef(opts.original as string) : undefined;
  await checkFile(path);
  const client = legacyClient(f, 'upload');
  const result = originalRef
    ? await client.uploadMask({ path, type: type as 'input' | 'temp', originalRef })
    : await client.upload({ path, type: type as 'input' | 'temp', overwrite: Boolean(opts.overwrite) });
  if (f.io.json) {
    f.io.printJson(result);
    return 0;
  }
  const name = sanitizeLine(result.name);
  f.io.println(result.subfolder ? `${sanitizeLine(result.subfolder)}/${name}` : name);
  f.io.info(`uploaded ${path} as ${JSON.stringify(name)}${originalRef ? ` (mask of ${originalRef.filename})` : ''}; refer to it by that name in a LoadImage node`);
  return 0;
}
