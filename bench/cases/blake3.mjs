// blake3 throughput: wes's own hashing (src/files/blake3.ts, bundled as the CLI bundles it)
// against b3sum on one thread (else sha256sum), then every candidate JS/WASM implementation on
// the same file, so the choice of implementation rests on a measurement.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { measure } from '../lib/measure.mjs';
import { randomFile } from '../lib/files.mjs';
import { failed, row, unavailable } from '../lib/report.mjs';
import { formatSize, mbPerSecond, median } from '../lib/stats.mjs';
import { NODE } from '../lib/wes.mjs';
import { ratioTarget } from '../lib/targets.mjs';

const CANDIDATE_DIR = '/tmp/wes-bench-blake3-candidates';
const HASH_CLIENT = fileURLToPath(new URL('../clients/hash-file.mjs', import.meta.url));
const WES_BLAKE3 = fileURLToPath(new URL('../../src/files/blake3.ts', import.meta.url));

/** impl → npm packages it needs (installed only under /tmp, never into the project) */
const CANDIDATES = {
  'blake3-wasm': ['blake3-wasm@3'],
  'blake3-jit': ['blake3-jit'],
  noble: ['@noble/hashes'],
};
const PACKAGE_DIRS = { 'blake3-wasm': 'blake3-wasm', 'blake3-jit': 'blake3-jit', noble: '@noble/hashes' };

function installCandidates(log, allowInstall) {
  const missing = Object.keys(CANDIDATES).filter((impl) => !existsSync(join(CANDIDATE_DIR, 'node_modules', PACKAGE_DIRS[impl], 'package.json')));
  if (missing.length === 0) return;
  if (!allowInstall) {
    log(`blake3: ${missing.join(', ')} not installed; not installing (--no-setup)`);
    return;
  }
  mkdirSync(CANDIDATE_DIR, { recursive: true });
  // blake3-wasm 3.0.0 pins @c4312/blake3-internal 2.1.7, which the registry never had; 3.0.0 is its match.
  writeFileSync(join(CANDIDATE_DIR, 'package.json'), JSON.stringify({ private: true, overrides: { '@c4312/blake3-internal': '3.0.0' } }));
  for (const impl of missing) {
    const npm = spawnSync('npm', ['install', '--prefix', CANDIDATE_DIR, '--no-audit', '--no-fund', '--loglevel=error', ...CANDIDATES[impl]], { encoding: 'utf8', timeout: 180_000 });
    log(npm.status === 0 ? `blake3: installed ${CANDIDATES[impl].join(' ')} into ${CANDIDATE_DIR}` : `blake3: could not install ${impl}: ${(npm.stderr || '').trim().split('\n').pop()}`);
  }
}

// Bundled as the CLI bundles it (the native binding external), into the project's node_modules so
// that the binding resolves from there as it does from dist/.
async function bundleWesBlake3() {
  const outfile = fileURLToPath(new URL('../../node_modules/.wes-bench/wes-blake3.mjs', import.meta.url));
  await build({ entryPoints: [WES_BLAKE3], bundle: true, format: 'esm', platform: 'node', target: 'node20', outfile, external: ['@napi-rs/blake-hash'], logLevel: 'error' });
  return outfile;
}

/** The reference tool: b3sum on one thread, else sha256sum. Returns { label, run(file) } or null. */
function referenceTool(tools) {
  if (tools.b3sum) return { label: 'b3sum 1 thread', blake3: true, run: (file) => measure(tools.b3sum, ['--num-threads', '1', file]) };
  if (tools.sha256sum) return { label: 'sha256sum', blake3: false, run: (file) => measure(tools.sha256sum, [file]) };
  return null;
}

async function referenceSpeed(reference, file, size, runs) {
  const timed = [];
  let hex = null;
  for (let i = 0; i < runs + 2; i++) {
    const result = await reference.run(file);
    if (result.code !== 0) return { error: result.stderr.trim() };
    hex = result.stdout.split(/\s+/)[0];
    if (i >= 2) timed.push(result.wallMs);
  }
  return { mbps: mbPerSecond(size, median(timed)), hex };
}

/** MB/s of one implementation: median hashing time of `runs` child runs after one warm-up. */
async function implementationSpeed(impl, file, moduleDir, runs, env = {}) {
  const speeds = [];
  let hex = null;
  let backend = null;
  let rss = 0;
  const warmup = 2;
  for (let i = 0; i < runs + warmup; i++) {
    const result = await measure(NODE, [HASH_CLIENT, impl, file, moduleDir], { env: { ...process.env, ...env } });
    if (result.code !== 0) return { error: result.stderr.trim().split('\n').slice(-2).join(' ') };
    const report = JSON.parse(result.stdout);
    hex = report.hex;
    backend = report.backend ?? null;
    rss = Math.max(rss, result.maxRssMb ?? 0);
    if (i >= warmup) speeds.push(mbPerSecond(report.bytes, report.hash_ms));
  }
  return { mbps: median(speeds), hex, rss, backend };
}

export async function run(ctx) {
  const reference = referenceTool(ctx.tools);
  const size = ctx.sizes.blake3;
  const title = `blake3 ${formatSize(size)}`;
  const target = ratioTarget('blake3');
  const bundle = await bundleWesBlake3();
  const file = randomFile(ctx.scratch, `blake3-${size}.bin`, size);
  const runs = ctx.runs(3);
  const rows = [];

  const wes = await implementationSpeed('wes', file, bundle, runs);
  const ref = reference ? await referenceSpeed(reference, file, size, runs) : null;
  if (wes.error) rows.push(failed('blake3', title, `wes hashing failed: ${wes.error}`, target));
  else {
    const agree = reference?.blake3 && ref?.hex ? (ref.hex === wes.hex ? 'digest matches b3sum' : `DIGEST DIFFERS from b3sum (${wes.hex} vs ${ref.hex})`) : '';
    rows.push(
      row('blake3', `${title} (wes, ${wes.backend ?? 'hash-wasm'})`, {
        wes: { value: wes.mbps, unit: 'MB/s' },
        reference: ref?.mbps ? { value: ref.mbps, unit: 'MB/s', label: reference.label } : null,
        target: reference?.blake3 ? target : { report: true },
        note: [reference ? '' : 'no b3sum or sha256sum: wes figure only', agree, `peak RSS ${wes.rss.toFixed(0)} MB`].filter(Boolean).join('; '),
        details: { wes, reference: ref },
      }),
    );
  }

  // Candidates on a smaller file in quick mode (the pure-JS one runs at tens of MB/s).
  installCandidates(ctx.log, ctx.options.setup);
  const candSize = ctx.sizes.candidates;
  const candFile = randomFile(ctx.scratch, `blake3-${candSize}.bin`, candSize);
  const candRef = reference ? await referenceSpeed(reference, candFile, candSize, runs) : null;
  const measured = [];
  for (const impl of ['wes', 'wes-fallback', ...Object.keys(CANDIDATES)]) {
    const id = `blake3-candidate-${impl}`;
    const label = { wes: `${wes.backend ?? 'hash-wasm'} (wes default)`, 'wes-fallback': 'hash-wasm (wes fallback, WES_BLAKE3=wasm)', noble: '@noble/hashes' }[impl] ?? impl;
    const candTitle = `blake3 ${formatSize(candSize)}: ${label}`;
    const moduleDir = impl.startsWith('wes') ? bundle : CANDIDATE_DIR;
    if (!impl.startsWith('wes') && !existsSync(join(CANDIDATE_DIR, 'node_modules', PACKAGE_DIRS[impl]))) {
      rows.push(unavailable(id, candTitle, ctx.options.setup ? 'not available (npm install into /tmp failed)' : 'not available (not installed; --no-setup)', { report: true }));
      continue;
    }
    const fallback = impl === 'wes-fallback';
    const speed = await implementationSpeed(fallback ? 'wes' : impl, candFile, moduleDir, impl === 'noble' ? 1 : runs, fallback ? { WES_BLAKE3: 'wasm' } : {});
    if (speed.error) {
      rows.push(failed(id, candTitle, speed.error, { report: true }));
      continue;
    }
    const digestOk = !candRef?.hex || !reference.blake3 || candRef.hex === speed.hex;
    measured.push({ impl: label, mbps: speed.mbps, digestOk });
    rows.push(
      row(id, candTitle, {
        wes: { value: speed.mbps, unit: 'MB/s' },
        reference: candRef?.mbps ? { value: candRef.mbps, unit: 'MB/s', label: reference.label } : null,
        target: { report: true },
        note: digestOk ? '' : `DIGEST DIFFERS from ${reference.label}`,
        details: speed,
      }),
    );
  }
  const best = measured.filter((m) => m.digestOk && !m.impl.includes('wes default')).sort((a, b) => b.mbps - a.mbps)[0];
  const main = rows.find((r) => r.id === 'blake3');
  if (best && main) main.note = [main.note, `fastest other candidate on ${formatSize(candSize)}: ${best.impl} (${best.mbps.toFixed(0)} MB/s)`].filter(Boolean).join('; ');
  return rows;
}
