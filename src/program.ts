// Builds the commander tree (definitions only: each command's module loads when it runs) and
// runs one invocation: global options, Ctrl-C and --timeout through one AbortSignal, usage errors
// as exit 2, every failure rendered by one error renderer.
import { Command, CommanderError, Option } from 'commander';
import type { Factory, GlobalOptions } from './factory.js';
import { VERSION } from './factory-version.js';
import { InterruptedError, TimeoutError, UsageError, ExitCode } from './errors.js';
import type { CommandModule } from './commands/types.js';
import { registerCommands } from './commands/registry.js';

export interface ProgramIO {
  argv: string[];
  env: NodeJS.ProcessEnv;
  stdin: NodeJS.ReadableStream & import('node:stream').Readable;
  stdout: import('node:stream').Writable;
  stderr: import('node:stream').Writable;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  columns?: number;
}

export type Loader = () => Promise<CommandModule>;
export type ActionFactory = (load: Loader) => (...args: unknown[]) => Promise<void>;

export function buildProgram(action: ActionFactory): Command {
  const program = new Command('wes')
    .description('Run node-graph workflows and partner AI models on the workflow execution service.')
    .version(`wes ${VERSION}`, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help for a command')
    .showSuggestionAfterError(true)
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .optionsGroup('Global options:')
    .option('--json', 'print JSON (NDJSON for streams) on stdout')
    .option('-q, --quiet', 'print no progress or notes on stderr')
    .option('--verbose', 'print each request and response line on stderr (secrets redacted)')
    .option('--no-color', 'no colour (also NO_COLOR, CLICOLOR=0)')
    .option('--timeout <seconds>', 'overall deadline of a command that waits')
    .option('--retries <n>', 'retries of a failed request (default 4)')
    .option('--profile <name>', 'configuration profile (env WES_PROFILE)')
    .option('--base-url <url>', 'surfaces A and C base URL (env WES_BASE_URL)')
    .option('--router-url <url>', 'model router base URL (env WES_ROUTER_URL)')
    .addOption(new Option('--api-key <key>', 'API key (env WES_API_KEY)'))
    .addOption(new Option('--router-token <token>', 'model router credential (env WES_ROUTER_TOKEN)'))
    .option('--deployment <id>', 'serverless deployment id (env WES_DEPLOYMENT)')
    .option('--partner-key <key>', 'partner-node key for extra_data (env WES_PARTNER_KEY)');
  program.addHelpText(
    'after',
    `
Examples:
  $ wes dev-server                       # a local service to try everything
  $ wes jobs submit flow.json --wait --download out/
  $ wes models run acme/echo -d '{"prompt":"hi"}'
  $ wes help exit-codes

Configuration: flags, then WES_* environment variables, then the profile (wes auth login).`,
  );
  registerCommands(program, action);
  return program;
}

export async function runProgram(io: ProgramIO): Promise<number> {
  const controller = new AbortController();
  let factory: Factory | undefined;
  let exitCode = 0;
  let timer: NodeJS.Timeout | undefined;
  let interrupts = 0;
  const onSigint = () => {
    interrupts++;
    if (interrupts > 1) process.exit(ExitCode.INTERRUPTED);
    controller.abort(new InterruptedError());
  };
  process.on('SIGINT', onSigint);

  const action: ActionFactory = (load) =>
    async function (this: Command, ...args: unknown[]) {
      const cmd = args[args.length - 1] as Command;
      const globals = cmd.optsWithGlobals<GlobalOptions>();
      const { Factory, parseTimeout } = await import('./factory.js');
      const timeoutMs = parseTimeout(globals.timeout);
      if (timeoutMs !== undefined) {
        timer = setTimeout(() => controller.abort(new TimeoutError()), timeoutMs);
        timer.unref();
      }
      factory = new Factory({ ...io, globals, signal: controller.signal });
      const positional = (cmd.processedArgs as unknown[]).flatMap((a) => (a === undefined ? [] : Array.isArray(a) ? a : [a])).map(String);
      const mod = await load();
      const code = await mod.run(factory, positional, cmd.opts());
      exitCode = typeof code === 'number' ? code : 0;
    };

  const program = buildProgram(action);
  program.exitOverride();
  program.configureOutput({
    writeOut: (s) => io.stdout.write(s),
    writeErr: (s) => io.stderr.write(s),
    outputError: () => {},
  });
  for (const sub of allCommands(program)) {
    sub.exitOverride();
    sub.configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s), outputError: () => {} });
  }

  try {
    await program.parseAsync(io.argv, { from: 'user' });
    return exitCode;
  } catch (err) {
    if (err instanceof CommanderError && (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help')) return 0;
    const { renderError } = await import('./render/error.js');
    const { Factory } = await import('./factory.js');
    const errIo = factory?.io ?? new Factory({ ...io, globals: { json: io.argv.includes('--json') }, signal: controller.signal }).io;
    if (err instanceof CommanderError) {
      return renderError(errIo, new UsageError(err.message.replace(/^error: /, ''), 'see `wes <command> --help`'));
    }
    return renderError(errIo, err);
  } finally {
    if (timer) clearTimeout(timer);
    process.off('SIGINT', onSigint);
    await factory?.dispose();
  }
}

function allCommands(cmd: Command): Command[] {
  return cmd.commands.flatMap((c) => [c, ...allCommands(c)]);
}
