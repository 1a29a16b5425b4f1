// --original FILE_REF of `legacy upload --mask`: the image a mask belongs to, parsed while the
// command line is read (a malformed one is a usage error before the upload).
import { InvalidArgumentError } from 'commander';
import { isRecord } from '../../clients/shared/response-check.js';

export interface OriginalRef {
  filename: string;
  subfolder: string;
  type: string;
}

/** FILE_REF is the JSON object `{filename, subfolder, type}`, or just a file name (an input upload). */
export function parseOriginalRef(raw: string): OriginalRef {
  const trimmed = raw.trim();
  if (!trimmed.startsWith('{')) {
    if (!trimmed) throw new InvalidArgumentError('it needs the original image: a file name or {"filename":…,"subfolder":…,"type":…}.');
    return { filename: trimmed, subfolder: '', type: 'input' };
  }
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch (err) {
    throw new InvalidArgumentError(`it is not valid JSON (${(err as Error).message}); pass a file name, or '{"filename":"photo.png","subfolder":"","type":"input"}'.`);
  }
  if (!isRecord(value) || typeof value.filename !== 'string' || value.filename === '') {
    throw new InvalidArgumentError('it must be a JSON object with a non-empty "filename".');
  }
  for (const key of ['subfolder', 'type'] as const) {
    if (value[key] !== undefined && typeof value[key] !== 'string') throw new InvalidArgumentError(`its "${key}" must be a string.`);
  }
  return { filename: value.filename, subfolder: (value.subfolder as string | undefined) ?? '', type: (value.type as string | undefined) ?? 'input' };
}
