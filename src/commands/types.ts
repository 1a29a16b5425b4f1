import type { Factory } from '../factory.js';

/**
 * A command's run function: parsed positional arguments and the command's own options
 * (commander's camelCase names). Returns the exit code, or nothing for 0; throws WesError.
 */
export type RunFn = (f: Factory, args: string[], opts: Record<string, unknown>) => Promise<number | void>;
export interface CommandModule {
  run: RunFn;
}
