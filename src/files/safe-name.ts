// A server-supplied file name must never leave its folder nor disguise itself: separators (and
// their unicode look-alikes), '..', control and bidi characters, reserved device names and
// over-long names are rewritten. Pure functions, property-tested.
const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;
// After NFKC, fullwidth solidus and friends become '/', but some look-alikes survive it.
const SEPARATOR_LOOKALIKES = /[\/\\\u2215\u2044\u29f8\u29f9\uff0f\uff3c\u2216\u2571\u2572\u27cb\u27cd\u3033\u3035]/g;
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\u061c\ufeff]/g;
const WINDOWS_UNSAFE = /[<>:"|?*]/g;
const MAX_BYTES = 200;

function truncateUtf8(text: string, maxBytes: number): string {
  let out = '';
  let bytes = 0;
  for (const ch of text) {
    const n = Buffer.byteLength(ch);
    if (bytes + n > maxBytes) break;
    out += ch;
    bytes += n;
  }
  return out;
}

/** The extension worth keeping when a name is cut or numbered: a short one after a real stem. */
function splitExtension(name: string): { stem: string; ext: string } {
  const dot = name.lastIndexOf('.');
  return dot > 0 && name.length - dot <= 16 ? { stem: name.slice(0, dot), ext: name.slice(dot) } : { stem: name, ext: '' };
}

/** Keeps the extension (when short) and cuts the stem so the whole name fits in MAX_BYTES. */
function limitLength(name: string): string {
  if (Buffer.byteLength(name) <= MAX_BYTES) return name;
  const { stem, ext } = splitExtension(name);
  // A cut can end the name on '.' or ' ', which Windows drops: that could merge two names.
  return truncateUtf8(stem, MAX_BYTES - Buffer.byteLength(ext)).replace(/[. ]+$/, '') + ext;
}

export function safeFileName(raw: string, fallback = 'output'): string {
  let name = raw.normalize('NFKC').replace(CONTROL, '').replace(SEPARATOR_LOOKALIKES, '_').replace(WINDOWS_UNSAFE, '_');
  name = name.replace(/\.{2,}/g, '_').trim().replace(/[. ]+$/, '');
  if (name.startsWith('.')) name = `_${name.slice(1)}`;
  if (RESERVED.test(name)) name = `_${name}`;
  name = limitLength(name);
  return name === '' || name === '_' ? limitLength(safeFileName(fallback, 'output') || 'output') : name;
}

/** Hands out names unique within one folder for one run (case-insensitively: macOS, Windows). */
export class UniqueNames {
  private readonly taken = new Set<string>();

  reserve(raw: string, fallback?: string): string {
    const base = safeFileName(raw, fallback);
    const { stem, ext } = splitExtension(base);
    let candidate = base;
    for (let i = 1; this.taken.has(candidate.toLowerCase()) || candidate.toLowerCase().endsWith('.part'); i++) {
      // The number must survive the length limit, or a long name would be handed out again
      // (and this loop would never end): the stem gives way, never the suffix.
      const suffix = ` (${i})${ext.toLowerCase() === '.part' ? '.bin' : ext}`;
      candidate = truncateUtf8(stem, MAX_BYTES - Buffer.byteLength(suffix)) + suffix;
    }
    this.taken.add(candidate.toLowerCase());
    return candidate;
  }
}
