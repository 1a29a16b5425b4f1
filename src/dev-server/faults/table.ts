// The scripted-fault table: each entry answers the next `count` requests matching its pattern.
import { validateHeaderName, validateHeaderValue } from 'node:http';
import type { FaultSpec, FaultTable } from '../contract.js';
import { RACES, type Race } from './races.js';

export const FAULT_ACTIONS = ['status', 'delay', 'drop', 'truncate', 'stall', 'corrupt', 'lose', 'after', 'race'] as const;

interface Entry {
  spec: FaultSpec;
  method: string;
  segments: string[];
  remaining: number;
}

/** `*` matches one path segment, a trailing `**` any rest (including nothing). */
function pathMatches(pattern: string[], path: string[]): boolean {
  for (let i = 0; i < pattern.length; i++) {
    const want = pattern[i]!;
    if (want === '**' && i === pattern.length - 1) return true;
    const got = path[i];
    if (got === undefined) return false;
    if (want !== '*' && want !== got) return false;
  }
  return pattern.length === path.length;
}

function splitPath(path: string): string[] {
  return path.split('/').filter((s) => s.length > 0);
}

/** Throws a readable message when a spec cannot be used; the control route answers 400 with it. */
export function validateFaultSpec(raw: unknown): FaultSpec {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error('a fault must be an object');
  const spec = raw as Record<string, unknown>;
  if (typeof spec.match !== 'string' || !/^[A-Z*]+ \/\S*$/.test(spec.match)) {
    throw new Error('`match` must be "METHOD /path" (METHOD may be *)');
  }
  if (!FAULT_ACTIONS.includes(spec.action as (typeof FAULT_ACTIONS)[number])) {
    throw new Error(`\`action\` must be one of ${FAULT_ACTIONS.join(', ')}`);
  }
  const numeric = ['count', 'status', 'retry_after', 'delay_ms', 'after_bytes'] as const;
  for (const key of numeric) {
    const value = spec[key];
    if (value !== undefined && (typeof value !== 'number' || !Number.isInteger(value) || value < 0)) {
      throw new Error(`\`${key}\` must be a non-negative integer`);
    }
  }
  if ((spec.action === 'status' || spec.action === 'after') && (typeof spec.status !== 'number' || spec.status < 100 || spec.status > 599)) {
    throw new Error(`action \`${spec.action}\` needs \`status\` (100-599)`);
  }
  if (spec.action === 'race' && !RACES.includes(spec.race as Race)) throw new Error(`action \`race\` needs \`race\`: one of ${RACES.join(', ')}`);
  if (spec.headers !== undefined) {
    const headers = spec.headers;
    if (typeof headers !== 'object' || headers === null || Array.isArray(headers) || Object.values(headers).some((v) => typeof v !== 'string')) {
      throw new Error('`headers` must map names to strings');
    }
    // A name or value Node refuses would throw later, mid-answer, instead of here as a 400.
    for (const [name, value] of Object.entries(headers as Record<string, string>)) {
      try {
        validateHeaderName(name);
        validateHeaderValue(name, value);
      } catch (err) {
        throw new Error(`\`headers\`: ${(err as Error).message}`);
      }
    }
  }
  return spec as unknown as FaultSpec;
}

export class ScriptedFaults implements FaultTable {
  private entries: Entry[] = [];

  add(spec: FaultSpec): void {
    const [method, pattern] = spec.match.split(' ', 2) as [string, string];
    this.entries.push({ spec, method, segments: splitPath(pattern), remaining: spec.count ?? 1 });
  }

  clear(): void {
    this.entries = [];
  }

  take(method: string, path: string): FaultSpec | undefined {
    const segments = splitPath(path);
    const index = this.entries.findIndex(
      (e) => (e.method === '*' || e.method === method) && pathMatches(e.segments, segments),
    );
    if (index < 0) return undefined;
    const entry = this.entries[index]!;
    entry.remaining -= 1;
    if (entry.remaining <= 0) this.entries.splice(index, 1);
    return entry.spec;
  }

  pending(): FaultSpec[] {
    return this.entries.map((e) => ({ ...e.spec, count: e.remaining }));
  }
}
