// Writes test/durations.json, the seconds each test file took in a whole run, from vitest's JSON
// reporter: test/longest-first.ts orders the files by them where vitest has no record of its own
// (a fresh clone, CI). Every file, not only the slow ones: with the files under 1 s left to
// vitest's largest-first order, a fresh clone's suite took 150.5 s and 252 s of CPU on 2 cores,
// and 139.2 s and 232 s with every file's time (the same tree, vitest's own record removed).
// Refresh it when files are added, split or made faster:
//
//   npx vitest run --reporter=json --outputFile=/tmp/suite.json && node scripts/test-durations.mjs /tmp/suite.json
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const report = process.argv[2];
if (!report) {
  console.error('usage: node scripts/test-durations.mjs REPORT.json (vitest run --reporter=json --outputFile=REPORT.json)');
  process.exit(2);
}
const { testResults } = JSON.parse(readFileSync(report, 'utf8'));
const durations = testResults
  .map((file) => [relative(root, file.name).split('\\').join('/'), Math.round((file.endTime - file.startTime) / 100) / 10])
  .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1));
writeFileSync(`${root}test/durations.json`, `${JSON.stringify(Object.fromEntries(durations), null, 2)}\n`);
console.error(`test/durations.json: ${durations.length} files`);
