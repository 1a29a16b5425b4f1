// The library entry (`import { ... } from 'wes'`): the same HTTP layer and errors the CLI uses.
export { HttpClient, type HttpClientOptions, type HttpRequest, type HttpResponse } from './http/client.js';
export { resolveLink } from './http/links.js';
export { ApiError, WesError, UsageError, ExitCode, exitCodeForApi } from './errors.js';
export { sanitize } from './render/sanitize.js';
