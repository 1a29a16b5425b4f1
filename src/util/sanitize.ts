// Server text is untrusted: it must not be able to move the cursor, retitle the window, ring the
// bell, hide text or reorder it (bidi overrides) on the user's terminal.

// ESC-introduced sequences: CSI (ESC [ ... final), OSC (ESC ] ... BEL or ST), DCS/SOS/PM/APC
// (ESC P|X|^|_ ... ST), and two-character escapes. Also their 8-bit C1 forms.
const ESCAPE_SEQUENCES =
  /\u001b\[[0-?]*[ -/]*[@-~]|\u009b[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u009d[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[PX^_][^\u001b\u009c]*(?:\u001b\\|\u009c)?|[\u0090\u0098\u009e\u009f][^\u001b\u009c]*(?:\u001b\\|\u009c)?|\u001b[ -/]*[0-~]?/g;
// Remaining C0 controls except tab and newline, DEL, C1 controls, and the bidi/invisible
// formatting characters that can disguise text (Trojan Source).
const CONTROL_CHARS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\u061c\ufeff]/g;

/** Removes terminal control sequences and invisible formatting characters; keeps \n and \t. */
export function sanitize(text: string): string {
  return text.replace(ESCAPE_SEQUENCES, '').replace(CONTROL_CHARS, '');
}

/** Single-line form for table cells and status lines: newlines and tabs become spaces. */
export function sanitizeLine(text: string): string {
  return sanitize(text).replace(/[\r\n\t]+/g, ' ');
}

/** Sanitizes every string inside a JSON-like value (for human rendering of server objects). */
export function sanitizeDeep<T>(value: T): T {
  if (typeof value === 'string') return sanitize(value) as T;
  if (Array.isArray(value)) return value.map((v) => sanitizeDeep(v)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[sanitize(k)] = sanitizeDeep(v);
    return out as T;
  }
  return value;
}
