// `--set NODE.INPUT=` targets for completion, read from the workflow file on the command line:
// one `NODE.INPUT=` per input of every node (API format). Only names safe as shell words.
import { readFileSync, statSync } from 'node:fs';

const SAFE_NAME = /^[A-Za-z0-9_][A-Za-z0-9_:-]*$/;
/** A completion must answer at once: a larger file is not read. */
const MAX_BYTES = 8 << 20;

export function setTargets(path: string | undefined): string[] {
  if (!path || path === '-' || statSync(path).size > MAX_BYTES) return [];
  const workflow = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  if (workflow === null || typeof workflow !== 'object' || Array.isArray(workflow)) return [];
  const out: string[] = [];
  for (const [node, value] of Object.entries(workflow)) {
    const inputs = (value as { inputs?: unknown } | null)?.inputs;
    if (!SAFE_NAME.test(node) || inputs === null || typeof inputs !== 'object' || Array.isArray(inputs)) continue;
    for (const input of Object.keys(inputs)) if (SAFE_NAME.test(input)) out.push(`${node}.${input}=`);
  }
  return out;
}
