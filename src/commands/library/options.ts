// The flags that filter the asset library, shared by `library list` and `library tags`.
import type { LibraryFilter } from '../../clients/legacy/library.js';
import { nonEmpty, repeatableOption, valueOption, type OptionsDeclaration } from '../typed-options.js';

export interface LibraryFilterOptions {
  tag?: string[];
  excludeTag?: string[];
  name?: string;
}

export const filterDeclaration = (): OptionsDeclaration<LibraryFilterOptions> => ({
  tag: repeatableOption('--tag <tag>', 'only assets with this tag (repeatable: all of them)', nonEmpty),
  excludeTag: repeatableOption('--exclude-tag <tag>', 'leave out assets with this tag (repeatable: any of them)', nonEmpty),
  name: valueOption('--name <text>', 'only assets whose name contains TEXT (any case)', nonEmpty),
});

export function filterOf(opts: LibraryFilterOptions): LibraryFilter {
  return { includeTags: opts.tag, excludeTags: opts.excludeTag, nameContains: opts.name };
}
