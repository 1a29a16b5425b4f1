// The typed options of `wes api`, declared once (see src/commands/typed-options.ts).
import { Option } from 'commander';
import { API_FAMILIES, type ApiFamily } from '../../protocol/api-families.js';
import { flag, nonEmpty, repeatableOption, valueOption, type OptionsDeclaration, type OptionsRule, type TypedOption } from '../typed-options.js';
import { parseHeader, rawField, readsStdin, typedFieldText, type Field } from './syntax.js';
import { familyAlias } from './target.js';

export interface ApiOptions {
  /** --surface: which API family. */
  surface?: ApiFamily;
  rawField?: Field[];
  /** -F as typed (KEY=VALUE checked); @FILE values are read when the request is built. */
  field?: string[];
  header?: Array<[string, string]>;
  input?: string;
  include?: boolean;
  paginate?: boolean;
}

/** --surface jobs|models|legacy; the old name `router` still means models. */
function familyOption(): TypedOption<ApiFamily> {
  const option = new Option('--surface <family>', 'the API family whose base URL and credential to use (default: from the path)').choices(API_FAMILIES);
  const strict = option.parseArg!;
  return option.argParser((value: string, previous: unknown) => strict(familyAlias(value), previous) as ApiFamily);
}

export const apiOptions = (): OptionsDeclaration<ApiOptions> => ({
  surface: familyOption(),
  rawField: repeatableOption('-f, --raw-field <key=value>', 'a string parameter (repeatable; key[]=v appends to an array)', rawField),
  field: repeatableOption('-F, --field <key=value>', 'a typed parameter: JSON when it parses (5, true, null, {...}), @FILE reads a file (repeatable)', typedFieldText),
  header: repeatableOption('-H, --header <header>', 'an extra request header "Name: value" (repeatable)', parseHeader),
  input: valueOption('--input <file>', 'the request body from a file, or - for standard input (fields then go to the query)', nonEmpty),
  include: flag('-i, --include', 'print the status line and response headers before the body'),
  paginate: flag('--paginate', 'follow router pages (next_cursor while has_more) and print every page\'s data as one JSON array').conflicts('include'),
});

/** Standard input can be read once: by --input - or by one -F KEY=@-. */
const oneStdinReader: OptionsRule<ApiOptions> = ({ opts }) => {
  const readers = (opts.input === '-' ? 1 : 0) + (opts.field ?? []).filter(readsStdin).length;
  return readers > 1 ? 'standard input can be read once: give it to --input - or to one -F KEY=@-, not both' : undefined;
};

export const apiRules: Array<OptionsRule<ApiOptions>> = [oneStdinReader];
