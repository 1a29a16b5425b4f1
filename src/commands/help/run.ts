// wes help [topic | command...]: topics print their text; anything else shows that command's help.
import type { Command } from 'commander';
import type { Factory } from '../../factory.js';
import { rootCommand } from '../types.js';
import type { NoOptions } from '../typed-options.js';
import { EXIT_CODE_TABLE, UsageError } from '../../errors.js';
import { exitCodesTopic, environmentTopic, formattingTopic } from './topics.js';
import { HELP_TOPICS } from './topic-names.js';

const TOPICS: Record<(typeof HELP_TOPICS)[number], () => string> = {
  'exit-codes': exitCodesTopic,
  environment: environmentTopic,
  formatting: formattingTopic,
};

export async function run(f: Factory, args: string[], _opts: NoOptions, command: Command): Promise<number> {
  const topic = args.join(' ');
  if (topic === 'exit-codes' && f.io.json) {
    f.io.printJson(EXIT_CODE_TABLE.map(([code, meaning]) => ({ code, meaning })));
    return 0;
  }
  if (topic in TOPICS) {
    f.io.println(TOPICS[topic as keyof typeof TOPICS]());
    return 0;
  }
  let cmd = rootCommand(command);
  for (const word of args) {
    const next = cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!next) throw new UsageError(`no help topic or command ${JSON.stringify(topic)}`, `topics: ${HELP_TOPICS.join(', ')}; commands: wes --help`);
    cmd = next;
  }
  f.io.stdout.write(cmd.helpInformation());
  return 0;
}
