// The typed options of the profiles verbs, declared once (see src/commands/typed-options.ts).
import { flag, type OptionsDeclaration } from '../typed-options.js';

export interface ProfilesUseOptions {
  create?: boolean;
}

export const profilesUseOptions = (): OptionsDeclaration<ProfilesUseOptions> => ({
  create: flag('--create', 'create the profile when it does not exist'),
});
