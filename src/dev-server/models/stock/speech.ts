// dev/speech: a text-to-speech model whose partner answers with the audio bytes themselves. On the
// published routes (v2) the router passes them through as `audio/wav`; the interface's v1 routes
// describe JSON outputs only, so there the same audio comes back as a data URI inside JSON. A voice
// the provider does not have is its own refusal of the request (400 invalid_input), with its reason
// (`upstream_detail`) on the published routes.
import { failure, okJson, stringField, type ModelBehaviour } from './types.js';

export const VOICES = ['ember', 'willow', 'slate'] as const;
const SAMPLE_RATE = 8000;
const MS_PER_CHARACTER = 40;

/** A mono 16-bit PCM WAV file: a tone per character of `text`, its pitch by `voice`. */
export function encodeWav(text: string, voice: string): Buffer {
  const base = 220 * (1 + VOICES.indexOf(voice as (typeof VOICES)[number]) * 0.25);
  const perChar = Math.round((SAMPLE_RATE * MS_PER_CHARACTER) / 1000);
  const samples = Math.max(1, [...text].length) * perChar;
  const data = Buffer.alloc(samples * 2);
  const chars = [...text];
  for (let i = 0; i < samples; i++) {
    const code = chars[Math.floor(i / perChar)]?.codePointAt(0) ?? 0;
    const hz = base + (code % 24) * 10;
    data.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * hz * i) / SAMPLE_RATE)), i * 2);
  }
  const head = Buffer.alloc(44);
  head.write('RIFF', 0, 'ascii');
  head.writeUInt32LE(36 + data.length, 4);
  head.write('WAVEfmt ', 8, 'ascii');
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(1, 20); // PCM
  head.writeUInt16LE(1, 22); // mono
  head.writeUInt32LE(SAMPLE_RATE, 24);
  head.writeUInt32LE(SAMPLE_RATE * 2, 28);
  head.writeUInt16LE(2, 32);
  head.writeUInt16LE(16, 34);
  head.write('data', 36, 'ascii');
  head.writeUInt32LE(data.length, 40);
  return Buffer.concat([head, data]);
}

export const speechModel: ModelBehaviour = {
  id: 'dev/speech',
  summary: 'Speaks a text: its partner answers with WAV audio bytes.',
  chargesOnPolicyRejection: 'never',
  outputMediaType: 'audio/wav',
  schemas: () => ({
    Input: {
      type: 'object',
      additionalProperties: false,
      required: ['text'],
      properties: {
        text: { type: 'string', minLength: 1, maxLength: 2000, description: 'What to say.' },
        voice: { type: 'string', default: 'ember', description: `A voice of the provider (${VOICES.join(', ')}).` },
      },
    },
  }),
  costCents: (input) => 1 + Math.floor(stringField(input, 'text').length / 100),
  run: async (call) => {
    const voice = stringField(call.input, 'voice', 'ember');
    if (!(VOICES as readonly string[]).includes(voice)) {
      const reason = `unknown voice ${JSON.stringify(voice.slice(0, 40).replace(/[^\x20-\x7e]/g, '?'))}; this provider has ${VOICES.join(', ')}`;
      return { ...failure(400, 'invalid_input', 'The provider refused the request as malformed.'), upstream: { status: 400, detail: reason } };
    }
    const audio = encodeWav(stringField(call.input, 'text'), voice);
    if (call.api === 'v1') return okJson({ audio: `data:audio/wav;base64,${audio.toString('base64')}`, voice, bytes: audio.length });
    return { kind: 'ok', body: audio, contentType: 'audio/wav' };
  },
};
