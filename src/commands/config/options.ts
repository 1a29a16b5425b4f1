// The typed options of the config verbs, declared once (see src/commands/typed-options.ts).
import { flag, type OptionsDeclaration } from '../typed-options.js';

export interface ConfigGetOptions {
  reveal?: boolean;
}

export const configGetOptions = (): OptionsDeclaration<ConfigGetOptions> => ({
  reveal: flag('--reveal', 'print a secret in full'),
});
