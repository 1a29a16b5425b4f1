// The engine's JSON answers are Python's json.dumps with its defaults: `", "` and `": "` between
// items, every character outside ASCII written as a \u escape (surrogate pairs as two).
function asciiString(text: string): string {
  return JSON.stringify(text).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function pythonJson(value: unknown): string {
  if (typeof value === 'string') return asciiString(value);
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value).map(([k, v]) => `${asciiString(k)}: ${pythonJson(v)}`).join(', ')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
