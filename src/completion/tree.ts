// What of the commander tree a user can type: no hidden commands or options, and not
// commander's implicit `help` subcommand.
import type { Command, Option } from 'commander';

export function visibleSubcommands(cmd: Command): Command[] {
  return cmd.createHelp().visibleCommands(cmd).filter((c) => cmd.commands.includes(c));
}

export function visibleOptions(cmd: Command): Option[] {
  return cmd.createHelp().visibleOptions(cmd);
}
