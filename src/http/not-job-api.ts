// An answer of the job API's routes that proves the server at the base URL is no job API: a 501
// (a job API says "not here" in its own error envelope, `not_implemented`), an HTML 405, an HTML
// 404 for a request that would make something, or a 404 for the collections every job API serves
// (POST /api/v2/jobs, /api/v2/assets). A 404 page for one job or asset read proves nothing of the
// kind: a gateway in front of a real job API answers a gone job that way, so it stays "not found"
// (exit 5).
// That is a definitive answer, not a lost one: nothing was made, so it is said as a wrong base URL
// (what the server looks like, and where to point wes), never as a submit in doubt.
import { sanitizeLine } from '../util/sanitize.js';

export interface NotJobApiAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  url: URL;
  method?: string;
}

const REASONS: Record<number, string> = { 404: 'Not Found', 405: 'Method Not Allowed', 501: 'Not Implemented' };

/** The collections whose routes every job API serves, under any deployment prefix. */
const COLLECTION = /\/api\/v2\/(jobs|assets)$/;

function isHtml(a: NotJobApiAnswer): boolean {
  return /^text\/html\b/i.test(a.headers['content-type'] ?? '') || /^\s*<(!doctype|html)/i.test(a.body.toString('utf8', 0, 64));
}

function quoted(text: string, limit = 60): string {
  const line = sanitizeLine(text).trim();
  return line.length > limit ? `${line.slice(0, limit)}…` : line;
}

/** What the answer looks like, in a few words: an HTML page and its title, or the text, and the Server header. */
function looks(a: NotJobApiAnswer): string {
  const text = a.body.toString('utf8', 0, Math.min(a.body.length, 4096));
  let shape: string;
  if (isHtml(a)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1];
    shape = title && quoted(title) ? `an HTML page titled "${quoted(title)}"` : 'an HTML page';
  } else if (text.trim()) {
    shape = `the text "${quoted(text)}"`;
  } else {
    shape = 'an empty body';
  }
  const server = a.headers.server ? quoted(a.headers.server, 80) : '';
  return server ? `${shape}, from a server calling itself "${server}"` : shape;
}

/** The answer's words when it proves no job API is at the base URL; undefined for any other answer. */
export function notJobApi(a: NotJobApiAnswer): { code: string; message: string } | undefined {
  const changes = a.method !== undefined && a.method !== 'GET' && a.method !== 'HEAD';
  const provesIt = a.status === 501 || (a.status === 405 && (isHtml(a) || COLLECTION.test(a.url.pathname))) || (a.status === 404 && (COLLECTION.test(a.url.pathname) || (changes && isHtml(a))));
  if (!provesIt) return undefined;
  const what = `${a.method ? `${a.method} ` : ''}${a.url.pathname}`;
  return {
    code: 'not_job_api',
    message: `${a.url.origin} is not a job API server: it answered ${what} with ${a.status} ${REASONS[a.status]} as ${looks(a)}${changes ? '; nothing was made there' : ''}`,
  };
}
