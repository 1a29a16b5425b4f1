// Runs one invocation on the command tree (src/command-tree.ts): global options, Ctrl-C and
// --timeout through one AbortSignal, usage errors as exit 2, every failure rendered by one error
// renderer.
import { Command, CommanderError } from 'commander';
import type { Factory, FactoryInit, GlobalOptions } from './factory.js';
import { InterruptedError, TimeoutError, UsageError, type StopSignal } from './errors.js';
import { argsFor, type ActionFactory } from './commands/verb.js';
import { buildCommandTree } from './command-tree.js';
import { ERROR_EXPLAINERS } from './commands/registry.js';

export interface ProgramIO {
  argv: string[];
  env: NodeJS.ProcessEnv;
  stdin: import('./render/io.js').LazyReadable;
  stdout: import('node:stream').Writable;
  stderr: import('node:stream').Writable;
  stdinIsTTY?: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  columns?: number;
  /**
   * Ctrl-C for a caller that runs wes inside its own process (tests): aborting it interrupts the
   * command. Without it, runProgram listens for SIGINT on the process.
   */
  interrupt?: AbortSignal;
  /**
   * Aborted, with stdout's error as its reason, when the reader of stdout went away (`| head`) or
   * stdout cannot be written (runtime/output-streams.ts): the command stops as on Ctrl-C.
   */
  readerGone?: AbortSignal;
  /** Told once the command has answered for stdout's failure (said it, or was already stopping), so that the process does not say it again as it ends. */
  outputFailureHandled?: () => void;
  /** Builds the command's Factory: default the CLI's (cli-factory.ts); a unit test's has fake clients and clock (test/helpers/fake-factory.ts). */
  factory?: (init: FactoryInit) => Promise<Factory>;
}

export async function runProgram(io: ProgramIO): Promise<number> {
  const controller = new AbortController();
  let factory: Factory | undefined;
  let exitCode = 0;
  let timer: NodeJS.Timeout | undefined;
  let jqOut: import('./render/jq.js').JqOutput | undefined;
  // SIGINT and SIGTERM alike: the first stops the command in order (state kept, the way on said);
  // a second one means "now" and exits at once.
  let stopping = false;
  const onSignal = (signal: StopSignal, detail?: string) => {
    const reason = new InterruptedError(signal, detail);
    if (stopping) process.exit(reason.exitCode);
    stopping = true;
    controller.abort(reason);
  };
  const onSigint = () => onSignal('SIGINT');
  const onSigterm = () => onSignal('SIGTERM');
  if (io.interrupt) {
    io.interrupt.addEventListener('abort', () => controller.abort(new InterruptedError()), { once: true });
  } else {
    process.on('SIGINT', onSigint);
    process.on('SIGTERM', onSigterm);
  }
  // Once only: a write after the first failed one is dropped (runtime/output-streams.ts), so it
  // cannot come again. The reason is stdout's error: EPIPE, or a failure of the output itself.
  const outputFailure = () => io.readerGone?.reason as NodeJS.ErrnoException | undefined;
  io.readerGone?.addEventListener(
    'abort',
    () => {
      const failure = outputFailure();
      const failed = failure !== undefined && failure.code !== 'EPIPE';
      // Already stopping (Ctrl-C, SIGTERM, --timeout): that stop is the one said, with its code.
      if (stopping || controller.signal.aborted) {
        if (failed) io.outputFailureHandled?.();
        return;
      }
      if (failed) onSignal('OUTPUT_FAILED', failure.message);
      else onSignal('SIGPIPE');
    },
    { once: true },
  );

  const action: ActionFactory = (load) =>
    async function (this: Command, ...args: unknown[]) {
      const cmd = args[args.length - 1] as Command;
      const globals = cmd.optsWithGlobals<GlobalOptions>();
      const baseUrl = globals.baseUrl as string | string[] | undefined;
      if (Array.isArray(baseUrl)) {
        // Several: each is an endpoint of a batch; the settings keep the configured base URL (env, profile).
        globals.baseUrls = baseUrl;
        delete globals.baseUrl;
      }
      const { CliFactory, parseTimeout } = await import('./cli-factory.js');
      const timeoutMs = parseTimeout(globals.timeout);
      if (timeoutMs !== undefined) {
        timer = setTimeout(() => controller.abort(new TimeoutError()), timeoutMs);
        timer.unref();
      }
      let stdout = io.stdout;
      let stdoutIsTTY = io.stdoutIsTTY;
      if (globals.jq !== undefined) {
        const { checkJqExpression, JqOutput } = await import('./render/jq.js');
        globals.json = true;
        await checkJqExpression(globals.jq);
        // The command writes into jq, not to a terminal: compact JSON, one document a line.
        stdout = jqOut = new JqOutput(globals.jq, io.stdout, io.stdoutIsTTY);
        stdoutIsTTY = false;
      }
      const verb = await load();
      const init: FactoryInit = { ...io, stdout, stdoutIsTTY, globals, signal: controller.signal, settingsUse: verb.settingsUse };
      factory = await (io.factory ?? ((i: FactoryInit) => CliFactory.create(i)))(init);
      // Commander has parsed every argument and option (the verb's typed declaration says into what).
      const opts = cmd.opts();
      if (globals.baseUrls && !verb.takesSeveralBaseUrls?.(opts)) {
        throw new UsageError(`--base-url was given ${globals.baseUrls.length} times; this command talks to one server`, 'give --base-url once; only `wes jobs submit --batch FILE` spreads its lines over several (--base-url A --base-url B, or --via)');
      }
      const code = await verb.run(factory, argsFor(verb, cmd.processedArgs as unknown[]), opts, cmd);
      exitCode = typeof code === 'number' ? code : 0;
      if (jqOut) {
        const out = jqOut;
        jqOut = undefined;
        await out.finish();
      }
    };

  const program = buildCommandTree(action, io.argv);
  // The command that rejected the command line, so a usage error can name it.
  let failing: Command = program;
  for (const cmd of [program, ...allCommands(program)]) {
    cmd.exitOverride((e) => {
      failing = cmd;
      throw e;
    });
    cmd.configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s), outputError: () => {} });
    // A group named without a subcommand (`wes`, `wes jobs`) asks for its help: commander shows it
    // as an error (stderr, exit 1); shown as asked for instead, on stdout with exit 0, alike for all.
    const help = cmd.help.bind(cmd);
    cmd.help = ((context?: { error?: boolean }) => help(typeof context === 'object' ? { ...context, error: false } : context)) as typeof cmd.help;
  }

  /** Says an error or a stop on the command's own streams, or (before it had any) the same kind made for it; its exit code. */
  const say = async (err: unknown): Promise<number> => {
    const { renderError } = await import('./render/error.js');
    const { CliFactory } = await import('./cli-factory.js');
    const jqGiven = io.argv.some((a) => a === '--jq' || a.startsWith('--jq='));
    const errIo = factory?.io ?? (await CliFactory.create({ ...io, globals: { json: io.argv.includes('--json') || jqGiven, jq: jqGiven ? '' : undefined }, signal: controller.signal })).io;
    // The output's failure is said by the stop: the process need not say it again as it ends.
    if (err instanceof InterruptedError && err.signal === 'OUTPUT_FAILED') io.outputFailureHandled?.();
    return renderError(errIo, err);
  };
  try {
    await program.parseAsync(io.argv, { from: 'user' });
    // The output failed as the command ended: what it printed is lost all the same.
    const stop = controller.signal.reason;
    if (stop instanceof InterruptedError && stop.signal === 'OUTPUT_FAILED') return await say(stop);
    return exitCode;
  } catch (err) {
    if (err instanceof CommanderError && (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help')) return 0;
    // What the command printed before it failed (a watch's lines) still goes through jq.
    await jqOut?.finish().catch(() => undefined);
    if (err instanceof CommanderError) return await say(usageError(err, failing));
    // A reader that went away (`| head`), or an output that cannot be written (`> /dev/full`), stops
    // the command as Ctrl-C does (runtime/output-streams.ts): the write that found it so is that
    // stop, not a failure of its own; the stop says what happened.
    if (isFailedWrite(err, outputFailure()) && controller.signal.reason instanceof InterruptedError) return await say(controller.signal.reason);
    // What the command groups know about an error that the error alone does not say (registered by each group).
    if (factory) err = await explainError(factory, err);
    return await say(err);
  } finally {
    if (timer) clearTimeout(timer);
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigterm);
    await factory?.dispose();
  }
}

/** The write that found the pipe closed, or the very failure of the output that stopped the command (not another write's, a results file's on a full disk). */
function isFailedWrite(err: unknown, outputFailure: unknown): boolean {
  return (err as NodeJS.ErrnoException | undefined)?.code === 'EPIPE' || (err !== undefined && err === outputFailure);
}

function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** Commander's message as a usage error; its "(Did you mean x?)" becomes the hint, with the full command. */
function usageError(err: CommanderError, cmd: Command): UsageError {
  const path = commandPath(cmd);
  const [first, ...rest] = err.message.replace(/^error: /, '').split('\n');
  const suggestion = /^\(Did you mean (.+)\?\)$/.exec(rest.join(' ').trim())?.[1];
  const help = `see \`${path} --help\``;
  const subcommands = cmd.commands.map((c) => c.name());
  // -v is the version in many tools and --verbose in others; wes has -V for the one and no short form for the other.
  if (err.code === 'commander.unknownOption' && /'-v'/.test(first!)) return new UsageError(first!, `the version is -V (or --version); --verbose has no short form; ${help}`);
  // Two options of different modes (a verb's declaration says which with commander's conflicts).
  if (err.code === 'commander.conflictingOption') return new UsageError([first, ...rest].join(' ').trim(), `give one or the other; ${help}`);
  if (err.code === 'commander.excessArguments' && subcommands.length) {
    return new UsageError([first, ...rest].join(' ').trim(), `its subcommands: ${subcommands.join(', ')}; ${help}`);
  }
  if (!suggestion) return new UsageError([first, ...rest].join(' ').trim(), help);
  const isCommand = err.code === 'commander.unknownCommand';
  return new UsageError(`${first}${isCommand ? ` for \`${path}\`` : ''}`, `did you mean \`${isCommand ? `${path} ${suggestion}` : suggestion}\`? ${help}`);
}

function allCommands(cmd: Command): Command[] {
  return cmd.commands.flatMap((c) => [c, ...allCommands(c)]);
}

/** The error as the command groups' explainers leave it (src/commands/group.ts), each asked in turn. */
async function explainError(f: Factory, err: unknown): Promise<unknown> {
  for (const load of ERROR_EXPLAINERS) err = await (await load()).explain(f, err);
  return err;
}
