// The typed options of the auth verbs, declared once (see src/commands/typed-options.ts).
import { flag, type OptionsDeclaration, type OptionsRule } from '../typed-options.js';

export interface AuthLoginOptions {
  withToken?: boolean;
  routerTokenStdin?: boolean;
  /** False with --no-verify. */
  verify: boolean;
}

export const authLoginOptions = (): OptionsDeclaration<AuthLoginOptions> => ({
  withToken: flag('--with-token', 'read the API key from standard input (first line)'),
  routerTokenStdin: flag('--router-token-stdin', 'read the router credential from standard input (next line)'),
  verify: flag('--no-verify', 'do not check the credential against the server'),
});

/** A credential read from standard input and given as a flag too: which one to save is not clear. */
export const authLoginRules: Array<OptionsRule<AuthLoginOptions>> = [
  ({ given, givenGlobal }) => (given('withToken') && givenGlobal('apiKey') ? '--with-token reads the API key from standard input, and --api-key gives one too; pass one of them' : undefined),
  ({ given, givenGlobal }) => (given('routerTokenStdin') && givenGlobal('routerToken') ? '--router-token-stdin reads the router credential from standard input, and --router-token gives one too; pass one of them' : undefined),
];

export interface AuthStatusOptions {
  offline?: boolean;
}

export const authStatusOptions = (): OptionsDeclaration<AuthStatusOptions> => ({
  offline: flag('--offline', 'do not contact the server'),
});
