// Server text built to attack a terminal, and the check that none of it got through: CSI (colour,
// clear screen), OSC (retitle the window) ended by BEL or ST, a bare BEL, 8-bit C1 CSI, DCS, and
// the bidi overrides and isolates of Trojan Source. Each sample keeps a visible marker so a test
// can tell the text was printed (neutralised), not merely absent.
import { expect } from 'vitest';

export const MARK = 'VISIBLE';

export function hostile(tag: string): string {
  return `${MARK}-${tag} \u001b[31mred\u001b[0m \u001b]0;pwned-title\u0007 bell\u0007 \u001b]8;;http://evil.test\u001b\\link\u001b]8;;\u001b\\ \u009b2J c1 \u001bPdcs-payload\u001b\\ \u202egnp.exe\u202c \u2066iso\u2069 end`;
}

/** Characters that act on a terminal or reorder text; tab and newline are allowed. */
const TERMINAL_ACTIVE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\u061c\ufeff]/u;

/** Fails when `text` (something wes printed) holds any terminal-active character. */
export function expectClean(text: string, where: string): void {
  const hit = TERMINAL_ACTIVE.exec(text);
  expect(hit, `${where} holds U+${hit?.[0].codePointAt(0)?.toString(16).padStart(4, '0')} near ${JSON.stringify(text.slice(Math.max(0, (hit?.index ?? 0) - 30), (hit?.index ?? 0) + 30))}`).toBeNull();
}

/**
 * Both streams of a run are clean and the marker reached at least one of them. Text printed as
 * text also loses the payloads of OSC and DCS sequences; file names and JSON-quoted values
 * (`keepsPayload`) keep them as harmless characters (only the control characters are rewritten
 * or escaped there).
 */
export function expectNeutralised(res: { stdout: string; stderr: string }, tag: string, options: { keepsPayload?: boolean } = {}): void {
  for (const [stream, text] of [['stdout', res.stdout], ['stderr', res.stderr]] as const) {
    expectClean(text, `${stream} (${tag})`);
    if (options.keepsPayload) continue;
    expect(text, `${stream} (${tag})`).not.toContain('pwned-title');
    expect(text, `${stream} (${tag})`).not.toContain('dcs-payload');
  }
  expect(res.stdout + res.stderr, `the hostile text (${tag}) was never shown`).toContain(`${MARK}-${tag}`);
}
