// Files in and out: a job's outputs saved into a folder by the download feature (each one
// blake3-checked before it takes its name; paths, sizes and hashes returned; small pictures also
// as image content), and a local file put on the service as an asset (sent only when the service
// lacks its bytes).
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { JobsClient } from '../../clients/jobs/client.js';
import { downloadJobOutputs } from '../../features/transfers/job-outputs.js';
import { uploadAsset } from '../../features/transfers/uploads.js';
import { checkFolderTarget } from '../../files/targets.js';
import { readJob } from '../../command-kit/jobs/read-job.js';
import { isTerminal, type Output } from '../../protocol/jobs.js';
import { transferReporter } from '../reporters.js';
import { defineTool, str, type ToolImage } from '../tool.js';

/** Pictures up to this size are shown to the agent as image content; larger ones are only saved. */
export const IMAGE_CONTENT_MAX_BYTES = 1024 * 1024;
const IMAGE_CONTENT_MAX_COUNT = 4;
const SHOWN_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);

interface DownloadArgs {
  job_id: string;
  dir: string;
  existing?: 'refuse' | 'clobber' | 'skip';
  images?: boolean;
}

async function imagesOf(saved: Array<{ path: string; bytes: number; name: string }>, outputs: Output[]): Promise<ToolImage[]> {
  const out: ToolImage[] = [];
  for (const file of saved) {
    const type = outputs.find((o) => o.name === file.name)?.content_type?.split(';')[0]?.trim().toLowerCase();
    if (!type || !SHOWN_TYPES.has(type) || file.bytes > IMAGE_CONTENT_MAX_BYTES || out.length >= IMAGE_CONTENT_MAX_COUNT) continue;
    out.push({ data: await readFile(file.path), mimeType: type });
  }
  return out;
}

const download = defineTool<DownloadArgs>({
  name: 'download_outputs',
  description:
    `Save every output of a job into a local folder (created if needed), each file checked against the service's blake3 hash before it takes its name, plus job.json. Returns each file's path, size and hash; pictures up to ${IMAGE_CONTENT_MAX_BYTES / 1024} KiB are also returned as images you can look at. ` +
    'An interrupted download resumes when called again. A file already there with other bytes stops it unless existing says otherwise.',
  inputSchema: {
    type: 'object',
    properties: {
      job_id: str('The job id (or @last).', { minLength: 1 }),
      dir: str('The local folder to save into.', { minLength: 1 }),
      existing: { type: 'string', enum: ['refuse', 'clobber', 'skip'], description: 'A file already at an output\'s name with other bytes: refuse (default, an error), clobber (replace it) or skip (keep it). One with the same bytes is always kept.' },
      images: { type: 'boolean', description: 'Return small pictures as image content too (default true).' },
    },
    required: ['job_id', 'dir'],
    additionalProperties: false,
  },
  annotations: { title: "Download a job's outputs", readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  async run(call, args) {
    const { f } = call;
    await checkFolderTarget(args.dir, 'dir');
    const client = f.client(JobsClient);
    const current = await readJob(f, client, args.job_id);
    if (!isTerminal(current.job.status)) call.log('info', `job ${current.job.id} is still ${current.job.status}; saving the outputs committed so far`);
    const result = await downloadJobOutputs(client, current, args.dir, args.existing ?? 'refuse', transferReporter(call), f);
    if (result.errors.length) throw result.errors[0]!.error;
    const files = result.saved.map((s) => ({ name: s.name, path: resolve(s.path), size_bytes: s.bytes, hash: s.hash, verified: s.verified, asset_id: s.asset_id, ...(s.kept ? { kept: s.kept } : {}) }));
    const images = args.images === false ? [] : await imagesOf(result.saved, result.job.job.outputs);
    const verified = files.filter((x) => x.verified).length;
    return {
      summary: `saved ${files.length} output(s) of job ${current.job.id} into ${resolve(args.dir)} (${verified} verified by hash)${images.length ? `; ${images.length} shown as image(s)` : ''}`,
      structured: { job_id: current.job.id, status: result.job.job.status, dir: resolve(args.dir), files, job_file: resolve(result.jobFile) },
      images,
    };
  },
});

const upload = defineTool<{ path: string }>({
  name: 'upload_asset',
  description:
    'Put a local file on the service as an asset (hashed first; its bytes are sent only when the service does not hold them already). Returns the asset id: use it in submit_job inputs as "asset:ID" (or give "@/path/file" there directly).',
  inputSchema: { type: 'object', properties: { path: str('The local file to upload.', { minLength: 1 }) }, required: ['path'], additionalProperties: false },
  annotations: { title: 'Upload a file as an asset', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  async run(call, args) {
    const { f } = call;
    const placed = await uploadAsset(f.client(JobsClient), args.path, {}, transferReporter(call), f.hashing());
    const id = placed.asset.id;
    return {
      summary: `${placed.uploaded ? 'uploaded' : 'already on the service:'} ${args.path} → asset ${id}; use it as "asset:${id}" in submit_job inputs`,
      structured: { asset: placed.asset, hash: placed.hash, uploaded: placed.uploaded, path: resolve(placed.path), input_value: `asset:${id}` },
    };
  },
});

export const FILE_TOOLS = [download, upload];
