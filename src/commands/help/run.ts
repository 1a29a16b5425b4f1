// wes help [topic | command...]: topics print their text; anything else shows that command's help.
import type { Command } from 'commander';
import type { Factory } from '../../factory.js';
import { noOptions, type NoOptions } from '../typed-options.js';
import { EXIT_CODE_TABLE, UsageError } from '../../errors.js';
import { exitCodesTopic, environmentTopic, formattingTopic } from './topics.js';
import { arg, defineVerb, rootCommand, type ArgsOf } from '../verb.js';

const HELP_TOPICS = ['exit-codes', 'environment', 'formatting'] as const;

const TOPICS: Record<(typeof HELP_TOPICS)[number], () => string> = {
  'exit-codes': exitCodesTopic,
  environment: environmentTopic,
  formatting: formattingTopic,
};

const positional = { topic: arg('[topic...]', undefined, { values: { kind: 'help-topics', topics: HELP_TOPICS } }) };

async function run(f: Factory, args: ArgsOf<typeof positional>, _opts: NoOptions, command: Command): Promise<number> {
  const words = args.topic;
  const topic = words.join(' ');
  if (topic === 'exit-codes' && f.io.json) {
    f.io.printJson(EXIT_CODE_TABLE.map(([code, meaning]) => ({ code, meaning })));
    return 0;
  }
  const isTopic = Object.hasOwn(TOPICS, topic);
  let cmd = rootCommand(command);
  if (!isTopic) {
    for (const word of words) {
      const next = cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
      if (!next) throw new UsageError(`no help topic or command ${JSON.stringify(topic)}`, `topics: ${HELP_TOPICS.join(', ')}; commands: wes --help`);
      cmd = next;
    }
  }
  // With --json stdout holds one JSON document: text would break the pipe that asked for one.
  if (f.io.json) throw new UsageError(`wes help ${topic}`.trimEnd() + ' is text and has no JSON form', 'drop --json and --jq; `wes help exit-codes --json` is the table of exit codes as JSON');
  if (isTopic) {
    f.io.println(TOPICS[topic as keyof typeof TOPICS]());
    return 0;
  }
  f.io.stdout.write(cmd.helpInformation());
  return 0;
}

export default defineVerb({
  path: ['help'],
  args: positional,
  options: noOptions(),
  help: {
    summary: `Help for a command, or a topic: ${HELP_TOPICS.join(', ')}`,
    group: 'Setup and tools:',
    after: ['\nExamples:\n  $ wes help exit-codes\n  $ wes help jobs submit\n  $ wes help formatting'],
  },
  run,
});
