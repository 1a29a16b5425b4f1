// JSON for stdout: the service's objects unchanged, but with every character that could act on a
// terminal written as a \u escape (JSON.stringify already escapes C0; C1, DEL and bidi controls
// it leaves raw). The decoded value is identical.
const UNSAFE_IN_JSON = /[\u007f-\u009f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\u061c\ufeff]/g;

function escapeChar(ch: string): string {
  return '\\u' + ch.charCodeAt(0).toString(16).padStart(4, '0');
}

/** The same escaping for JSON text received as is (a document printed unchanged). */
export function escapeUnsafeJsonText(text: string): string {
  return text.replace(UNSAFE_IN_JSON, escapeChar);
}

export function toSafeJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(UNSAFE_IN_JSON, escapeChar);
}
