// Completion scripts for the shells wes supports, from the live command tree.
import type { Command } from 'commander';
import { completionSpec } from './spec.js';
import { bashScript } from './bash.js';
import { zshScript } from './zsh.js';
import { fishScript } from './fish.js';
import type { Shell } from './kinds.js';

const GENERATORS: Record<Shell, (spec: ReturnType<typeof completionSpec>) => string> = {
  bash: bashScript,
  zsh: zshScript,
  fish: fishScript,
};

export function completionScript(shell: Shell, program: Command): string {
  return GENERATORS[shell](completionSpec(program));
}
