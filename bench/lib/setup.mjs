// The bench's setup step: finds the reference tools and, when running as root, installs the
// missing Debian packages once. Anything that still cannot be had is reported, never fatal:
// the cases that need it say 'not available'.
import { spawnSync } from 'node:child_process';

/** tool → Debian package that provides it */
const TOOLS = {
  curl: 'curl',
  b3sum: 'b3sum',
  time: 'time', // GNU time at /usr/bin/time: peak RSS and CPU of each run
  hyperfine: 'hyperfine', // optional: not used for figures, only reported as present
  sha256sum: 'coreutils',
};

function locate(tool) {
  if (tool === 'time') return spawnSync('/usr/bin/time', ['-f', '%M', 'true'], { stdio: 'ignore' }).status === 0 ? '/usr/bin/time' : null;
  const found = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : null;
}

function toolVersion(tool, path) {
  if (!path) return null;
  const out = spawnSync(path, ['--version'], { encoding: 'utf8' });
  const first = (out.stdout || out.stderr || '').split('\n')[0];
  // "curl 7.88.1 (x86_64-pc-linux-gnu) libcurl/..." → "curl 7.88.1"
  return first.replace(/\([^)]*\)/g, '').replace(/\s+/g, ' ').trim().split(' ').slice(0, 2).join(' ') || null;
}

export function findTools() {
  const tools = {};
  for (const tool of Object.keys(TOOLS)) tools[tool] = locate(tool);
  return tools;
}

/** Installs missing packages with apt-get (root only); returns the tools found afterwards and a log. */
export function setupTools({ allowInstall, log }) {
  let tools = findTools();
  const missing = Object.keys(TOOLS).filter((t) => !tools[t]);
  if (missing.length === 0) {
    log(`setup: all tools present (${Object.keys(TOOLS).join(', ')})`);
  } else if (!allowInstall) {
    log(`setup: missing ${missing.join(', ')}; not installing (--no-setup)`);
  } else if (typeof process.getuid !== 'function' || process.getuid() !== 0) {
    log(`setup: missing ${missing.join(', ')}; not root, so not installing (apt-get install ${missing.map((t) => TOOLS[t]).join(' ')})`);
  } else {
    const packages = [...new Set(missing.map((t) => TOOLS[t]))];
    log(`setup: missing ${missing.join(', ')}; apt-get install ${packages.join(' ')}`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const update = spawnSync('apt-get', ['update', '-qq'], { stdio: ['ignore', 'ignore', 'pipe'], env, timeout: 180_000 });
    if (update.status !== 0) log(`setup: apt-get update failed (${String(update.stderr).trim().split('\n').pop()}); trying install anyway`);
    // One package at a time, so one that Debian lacks does not stop the others.
    for (const pkg of packages) {
      const install = spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', pkg], { stdio: ['ignore', 'ignore', 'pipe'], env, timeout: 300_000 });
      log(install.status === 0 ? `setup: installed ${pkg}` : `setup: could not install ${pkg}: ${String(install.stderr).trim().split('\n').pop()}`);
    }
    tools = findTools();
  }
  const versions = {};
  for (const [tool, path] of Object.entries(tools)) versions[tool] = path ? toolVersion(tool, path) : null;
  return { tools, versions };
}
