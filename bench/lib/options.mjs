// Command-line options of `npm run bench`.

const USAGE = `usage: npm run bench -- [--check] [--full] [--json FILE] [--only NAME[,NAME]] [--no-setup] [--runs N] [--cpu-prof DIR]
  --check      exit 1 when a row misses its target (bench/lib/targets.mjs) or could not be measured
  --full       large sizes (1 GiB download and blake3, 256 MiB upload, 30 s idle watch)
  --json FILE  also write the results as JSON
  --markdown FILE  also write the machine, the table and the notes as Markdown
  --only       run only cases whose id contains one of these words
  --no-setup   never install Debian packages or the blake3 candidates (npm, under /tmp)
  --runs N     timed runs per case (default: 10 for start-up cases, 3 for the others)
  --cpu-prof DIR  write a V8 CPU profile of every wes run into DIR (node --cpu-prof; timings then include the profiler)`;

export function parseOptions(argv) {
  const options = { check: false, full: false, json: null, markdown: null, only: [], setup: true, runs: null, cpuProf: null };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--check') options.check = true;
    else if (arg === '--full') options.full = true;
    else if (arg === '--quick') options.full = false;
    else if (arg === '--json') options.json = argv[++i];
    else if (arg.startsWith('--json=')) options.json = arg.slice('--json='.length);
    else if (arg === '--markdown') options.markdown = argv[++i];
    else if (arg === '--only') options.only = argv[++i].split(',');
    else if (arg === '--no-setup') options.setup = false;
    else if (arg === '--runs') options.runs = Number(argv[++i]);
    else if (arg === '--cpu-prof') options.cpuProf = argv[++i];
    else if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else {
      console.error(`bench: unknown option ${arg} (ignored)\n${USAGE}`);
    }
  }
  return options;
}
