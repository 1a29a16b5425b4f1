// The command tree: the root `wes` command with its global options and every command group,
// from the generated manifest (src/commands/registry.ts; a verb's module loads when it runs). Built by runProgram with the
// action that runs a command; help and completion get the live tree from the command they run in,
// so nothing under src/commands imports this module or src/program.ts.
import { Command, Help, Option } from 'commander';
import { VERSION } from './factory-version.js';
import type { ActionFactory } from './commands/verb.js';
import { registerCommands } from './commands/registry.js';
import { ENGINE_KINDS, JOB_API_SETTINGS, ROUTER_API_SETTINGS } from './config/keys.js';

/** A value given once stays a string; given again, every value in order (program.ts sorts them out). */
function repeatable(value: string, previous: string | string[] | undefined): string | string[] {
  return previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
}

/**
 * The tree for a command line: with `argv`, only the command group its first word names (see
 * registerCommands); without, every command.
 */
export function buildCommandTree(action: ActionFactory, argv?: readonly string[]): Command {
  const program = new Command('wes')
    .description('Run node-graph workflows and partner AI models on the workflow execution service.')
    .version(`wes ${VERSION}`, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help for a command')
    .showSuggestionAfterError(true)
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .optionsGroup('Global options:')
    .option('--json', 'print JSON (NDJSON for streams) on stdout')
    .option('--jq <expr>', 'filter the JSON output with a jq expression (implies --json; strings raw, one result a line)')
    .option('-q, --quiet', 'print no progress or notes on stderr')
    .option('--verbose', 'print each request and response line on stderr (secrets redacted)')
    .option('--no-color', 'no colour (also NO_COLOR, CLICOLOR=0)')
    .option('--timeout <seconds>', 'overall deadline of a command that waits')
    .option('--retries <n>', 'retries of a failed request (default 4)')
    .option('--max-answer-mib <n>', 'largest answer held in memory, in MiB (default 64; env WES_MAX_ANSWER_MIB); downloads are not limited')
    .option('--read-timeout <seconds>', 'abandon a response that sends nothing this long, and retry (default 30; env WES_READ_TIMEOUT)')
    .option('--profile <name>', 'configuration profile (env WES_PROFILE)')
    .option('--base-url <url>', 'base URL of the jobs and legacy APIs (env WES_BASE_URL); jobs submit --batch takes it repeated, URL[,N], one endpoint each', repeatable)
    .option('--router-url <url>', 'model router base URL (env WES_ROUTER_URL)')
    .addOption(new Option('--router-api <api>', 'model router routes: v1 (the interface\'s /v1/models), v2 (the published /v2/models) or auto (env WES_ROUTER_API; default auto)').choices(ROUTER_API_SETTINGS))
    .option('--engine-url <url>', 'base URL of the legacy API when it is not the base URL: the engine behind a self-hosted job API server (env WES_ENGINE_URL)')
    .addOption(new Option('--api-key <key>', 'API key (env WES_API_KEY)'))
    .addOption(new Option('--router-token <token>', 'model router credential (env WES_ROUTER_TOKEN)'))
    .addOption(new Option('--engine-key <key>', 'the engine URL\'s own key; the engine never gets the API key of another origin (env WES_ENGINE_KEY)'))
    .option('--deployment <id>', 'serverless deployment id (env WES_DEPLOYMENT)')
    .option('--partner-key <key>', 'partner-node key for extra_data (env WES_PARTNER_KEY)')
    .option('--partner-token <token>', 'account auth token for partner nodes, sent in a v1 prompt\'s extra_data only (env WES_PARTNER_TOKEN)')
    .addOption(new Option('--engine <kind>', 'v1 server: cloud, self-hosted (your own ComfyUI) or auto (env WES_ENGINE; default auto)').choices(ENGINE_KINDS))
    .addOption(new Option('--job-api <deployment>', 'job API deployment: serverless, cloud (Comfy Cloud), self-hosted or auto (env WES_JOB_API; default auto: detected, remembered per base URL)').choices(JOB_API_SETTINGS));
  program.addHelpText(
    'after',
    `
Examples:
  $ wes dev-server                       # a local service to try everything
  $ wes jobs submit flow.json --wait --download out/
  $ wes models run dev/echo -d '{"prompt":"hi"}'
  $ wes help exit-codes

Configuration: flags, then WES_* environment variables, then the profile (wes auth login).`,
  );
  const at = argv ? commandWordAt(program, argv) : undefined;
  registerCommands(program, action, at === undefined ? undefined : argv![at], at === undefined ? undefined : argv![at + 1]);
  // Root listing only (groups keep their usage terms): names alone keep descriptions readable.
  program.configureHelp({ showGlobalOptions: true, sortSubcommands: false, subcommandTerm: (c) => c.name(), formatHelp: commandsFirst });
  return program;
}

/**
 * Bare `wes` (and `wes --help`): the commands right under the description, the 40 lines of
 * global options after them. Someone who typed `wes` to find out what it does looks for the
 * commands; commander puts every option section first.
 */
function commandsFirst(cmd: Command, helper: Help): string {
  const sections = Help.prototype.formatHelp.call(helper, cmd, helper).trimEnd().split('\n\n');
  const isOptions = (section: string) => /^(Global )?[Oo]ptions:/.test(section);
  return `${[...sections.filter((s) => !isOptions(s)), ...sections.filter(isOptions)].join('\n\n')}\n`;
}

/**
 * Where the command word of `argv` is, as commander will find it: the first operand after the
 * root's own options (those with a value take the next argument). Undefined when anything else
 * comes first (--help, an unknown option, `--`): the whole tree then answers.
 */
function commandWordAt(program: Command, argv: readonly string[]): number | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('-') || arg === '-') return i;
    const [name, value] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), true] : [arg, false];
    const option = program.options.find((o) => o.long === name || o.short === name);
    if (!option || option.optional || name === '--version' || name === '-V') return undefined;
    if (option.required && !value) i++;
  }
  return undefined;
}
