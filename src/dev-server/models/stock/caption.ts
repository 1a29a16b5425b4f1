// dev/caption: a partner model that takes its image by URL (`format: uri`), as hosted partners
// do: it downloads the image itself, with no credential of the caller's, so only a URL anyone
// holding it may fetch (a signed URL, or a server that serves the bytes openly) works. A data: URI
// or a URL it cannot fetch is the provider's refusal of the input.
import { createHash } from 'node:crypto';
import type { RouterValidationErrorDetail } from '../../../protocol/models.js';
import { pngSize } from './png.js';
import { stringField, type JsonObject, type ModelBehaviour, type ModelOutcome } from './types.js';

const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

function refused(msg: string, type: string, ctx?: Record<string, unknown>): ModelOutcome {
  return { kind: 'invalid', detail: [{ loc: ['image_url'], msg, type, ...(ctx ? { ctx } : {}) }] };
}

function checkUrl(input: JsonObject): RouterValidationErrorDetail[] {
  const value = stringField(input, 'image_url');
  if (/^https?:\/\//i.test(value)) return [];
  return [{ loc: ['image_url'], msg: 'image_url must be an http(s) URL the provider can download; upload the image and pass its URL', type: 'url_scheme', ctx: { expected_schemes: 'http, https' } }];
}

async function download(url: string, signal: AbortSignal): Promise<{ bytes?: Buffer; contentType?: string; status?: number }> {
  try {
    const res = await fetch(url, { redirect: 'follow', signal });
    if (!res.ok) {
      await res.body?.cancel();
      return { status: res.status };
    }
    const bytes = Buffer.from(await res.arrayBuffer());
    return { bytes, contentType: res.headers.get('content-type') ?? undefined };
  } catch {
    return { status: 0 };
  }
}

export const captionModel: ModelBehaviour = {
  id: 'dev/caption',
  summary: 'Describes an image it downloads from a URL (image_url, format: uri).',
  chargesOnPolicyRejection: 'never',
  schemas: () => ({
    Input: {
      type: 'object',
      required: ['image_url'],
      additionalProperties: false,
      properties: {
        image_url: { type: 'string', format: 'uri', description: 'Where the provider downloads the image from (http or https, no credentials).' },
        detail: { type: 'string', enum: ['short', 'long'], default: 'short', description: 'How much to say.' },
      },
    },
  }),
  costCents: () => 1,
  check: checkUrl,
  run: async (call) => {
    const url = stringField(call.input, 'image_url');
    const got = await download(url, call.signal);
    if (!got.bytes) return refused(`The provider could not download image_url (${got.status ? `HTTP ${got.status}` : 'no answer'})`, 'url_fetch_error', { status: got.status ?? 0 });
    if (got.bytes.length > MAX_IMAGE_BYTES) return refused(`The image is larger than ${MAX_IMAGE_BYTES} bytes`, 'image_too_large', { max_bytes: MAX_IMAGE_BYTES });
    const size = pngSize(got.bytes);
    const short = size ? `a ${size.width}x${size.height} PNG image` : `${got.bytes.length} bytes of ${got.contentType ?? 'unknown type'}`;
    const caption = stringField(call.input, 'detail', 'short') === 'long' ? `${short}, served as ${got.contentType ?? 'no media type'}` : short;
    return {
      kind: 'ok',
      body: Buffer.from(JSON.stringify({
        caption,
        bytes: got.bytes.length,
        sha256: createHash('sha256').update(got.bytes).digest('hex'),
        ...(size ? { width: size.width, height: size.height } : {}),
      })),
    };
  },
};
