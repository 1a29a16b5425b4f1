// The typed options of the `wes assets` verbs, declared once (see src/commands/typed-options.ts).
import { existingFileOptions, type ExistingFileOptions } from '../option-values.js';
import { checked, nonEmpty, repeatableOption, valueOption, wholeNumberIn, type OptionsDeclaration } from '../typed-options.js';
import { ASSET_EXPIRES_IN_MAX, ASSET_EXPIRES_IN_MIN } from '../../protocol/jobs.js';

/** type/subtype with optional parameters, in RFC 9110's token characters (no spaces, no line breaks). */
const MEDIA_TYPE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+(\s*;[^\r\n]*)?$/;

export interface AssetsUploadOptions {
  contentType?: string;
  name?: string;
  tag?: string[];
  expiresIn?: number;
}

export const assetsUploadOptions = (): OptionsDeclaration<AssetsUploadOptions> => ({
  contentType: valueOption('--content-type <type>', 'media type (default: from the file extension)', checked((raw) => (MEDIA_TYPE.test(raw) ? undefined : 'it must be a media type such as image/png'))),
  name: valueOption('--name <file-path>', 'the name to record (default: the file name); workflows may refer to it', nonEmpty),
  tag: repeatableOption('--tag <tag>', 'a category tag to record on the asset, e.g. input (repeatable)', nonEmpty),
  expiresIn: valueOption('--expires-in <seconds>', `keep the asset this long instead of the service's default retention (${ASSET_EXPIRES_IN_MIN} to ${ASSET_EXPIRES_IN_MAX}: one minute to seven days)`, wholeNumberIn(ASSET_EXPIRES_IN_MIN, ASSET_EXPIRES_IN_MAX)),
});

export type AssetsDownloadOptions = ExistingFileOptions;

export const assetsDownloadOptions = (): OptionsDeclaration<AssetsDownloadOptions> => existingFileOptions();
