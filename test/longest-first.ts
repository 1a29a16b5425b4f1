// The order vitest starts test files in: the longest first, so that the last files to start are
// short ones and the workers finish together. vitest's own order does this from its cache of
// earlier runs (node_modules/.vite), but a fresh clone (CI) has none: it falls back to the
// largest files first, which started the 60 s package install test a third of the way through
// and left it running alone at the end. There, test/durations.json says how long each file took
// in a whole run (`node scripts/test-durations.mjs REPORT.json` writes it from vitest's JSON
// reporter); a file it does not name (a new one) counts as quick and keeps vitest's largest-first order.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const recorded = JSON.parse(readFileSync(new URL('./durations.json', import.meta.url), 'utf8')) as Record<string, number>;

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const path = (spec: TestSpecification) => relative(root, spec.moduleId).split('\\').join('/');
    const cached = (spec: TestSpecification) => this.ctx.cache.getFileTestResults(`${spec.project.name}:${path(spec)}`);
    // Seconds: vitest's record of this machine's last run when it has one, else the committed one.
    const seconds = (spec: TestSpecification) => {
      const last = cached(spec);
      return last ? last.duration / 1000 : (recorded[path(spec)] ?? 0);
    };
    const failed = (spec: TestSpecification) => (cached(spec)?.failed ? 1 : 0);
    const size = new Map(files.map((spec) => [spec, this.ctx.cache.getFileStats(`${spec.project.name}:${path(spec)}`)?.size ?? 0]));
    // Failed last time first (as vitest does), then the longest, then the largest.
    return [...files].sort((a, b) => failed(b) - failed(a) || seconds(b) - seconds(a) || size.get(b)! - size.get(a)!);
  }
}
