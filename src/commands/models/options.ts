// The typed options of the models verbs that read the catalog, declared once: models/index.ts
// adds them to the commands, and each verb's run function takes the parsed object.
import { segmentProblem } from '../../protocol/model-ids.js';
import { checked, flag, valueOption, wholeNumber, type OptionsDeclaration } from '../typed-options.js';

export interface ModelsListOptions {
  all?: boolean;
  limit?: number;
  provider?: string;
}

export const modelsListOptions = (): OptionsDeclaration<ModelsListOptions> => ({
  all: flag('--all', 'walk every page of the catalog'),
  limit: valueOption('--limit <n>', 'page size to ask for (the router clamps it; default 20, 100 with --all)', wholeNumber),
  provider: valueOption('--provider <provider>', 'only models of this provider', checked((raw) => segmentProblem('provider', raw))),
});

export interface ModelsSchemaOptions {
  refresh?: boolean;
}

export const modelsSchemaOptions = (): OptionsDeclaration<ModelsSchemaOptions> => ({
  refresh: flag('--refresh', 'ignore the cached copy and fetch the document again'),
});
