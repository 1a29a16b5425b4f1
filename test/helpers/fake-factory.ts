// A seam above HTTP: a Factory for verb unit tests, built from buffers, whose clients are the
// fakes a test registers for their constructors (`client(JobsClient)` answers the registered
// fake) and whose clock is a test's own. runVerb runs a whole command line on it through
// runProgram (commander's parsing, the verb's rules, the error renderer and its exit codes), so a
// test sees what a person or a script would, in milliseconds, with no server and no socket.
// Nothing reaches the network: http() and an unregistered client throw.
// The seam below HTTP is HttpClientOptions.dispatcher (test/helpers/replay-dispatcher.ts replays
// recorded answers through it).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProgram } from '../../src/program.js';
import type { FactoryInit } from '../../src/factory.js';
import type { HttpClient } from '../../src/http/client.js';
import type { IOStreams } from '../../src/render/io.js';
import { CliFactory, openFactoryIO } from '../../src/cli-factory.js';
import type { Clock } from '../../src/util/clock.js';
import { FakeClock } from './fakes/clock.js';
import { terminalEnv } from './cli.js';
import { testIO, type TestIOOptions } from './test-io.js';

/** Fake clients by the constructor a verb asks for: `[[JobsClient, new FakeJobsClient(...)]]`. */
export type FakeClients = ReadonlyArray<readonly [abstract new (...args: never[]) => unknown, unknown]>;

/** The CLI's factory (settings, profile store, IO as a run has them) with fake clients and a test's clock. */
export class FakeFactory extends CliFactory {
  /** Every client the verb asked for, by constructor name, and whether with a signal of its own. */
  readonly asked: Array<{ client: string; ownSignal: boolean }> = [];

  constructor(
    init: FactoryInit,
    io: IOStreams,
    private readonly clients: Map<unknown, unknown>,
    override readonly clock: Clock,
  ) {
    super(init, io);
  }

  override http(): HttpClient {
    throw new Error('a verb unit test has no HTTP client: register a fake for the client the verb asks for');
  }

  override client<C>(make: new (http: HttpClient, ...rest: never[]) => C, signal?: AbortSignal): C {
    this.asked.push({ client: make.name, ownSignal: signal !== undefined });
    if (!this.clients.has(make)) throw new Error(`no fake registered for ${make.name}`);
    return this.clients.get(make) as C;
  }

  override httpFor(): HttpClient {
    return this.http();
  }
}

export interface VerbRun {
  clients?: FakeClients;
  clock?: Clock;
  env?: Record<string, string | undefined>;
  /** Which streams are a terminal (with a terminal's environment, terminalEnv); default none. */
  terminal?: Pick<TestIOOptions, 'stdoutTTY' | 'stderrTTY' | 'columns'>;
  stdin?: string;
  /** Aborting it is Ctrl-C. */
  interrupt?: AbortSignal;
}

export interface VerbResult {
  code: number;
  stdout: string;
  stderr: string;
  /** The Factory the verb ran with (what it asked of it). */
  factory: FakeFactory | undefined;
}

/**
 * Runs `argv` in this process on fake clients and a fake clock; a temp WES_CONFIG_DIR and
 * WES_STATE_DIR (the job history) of its own, removed after. Only the variables given, and those
 * of a terminal when `terminal` says so: the host's WES_* and colour settings never leak in.
 */
export async function runVerb(argv: string[], run: VerbRun = {}): Promise<VerbResult> {
  const dir = mkdtempSync(join(tmpdir(), 'wes-verb-'));
  const io = testIO({ ...run.terminal, stdin: run.stdin });
  const clients = new Map<unknown, unknown>(run.clients ?? []);
  const clock = run.clock ?? new FakeClock();
  const base = { WES_CONFIG_DIR: join(dir, 'config'), WES_STATE_DIR: join(dir, 'state'), PATH: process.env.PATH };
  const env = (run.terminal ? terminalEnv({ ...base, ...run.env }) : { ...base, ...run.env }) as NodeJS.ProcessEnv;
  let factory: FakeFactory | undefined;
  try {
    const code = await runProgram({
      ...io,
      argv,
      env,
      interrupt: run.interrupt ?? new AbortController().signal,
      factory: async (init) => {
        factory = new FakeFactory(init, await openFactoryIO(init), clients, clock);
        return factory;
      },
    });
    return { code, stdout: io.stdout.text(), stderr: io.stderr.text(), factory };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
