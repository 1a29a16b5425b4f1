// Which routes the model router serves: the interface's `/v1/models...` or the `/v2/models...` the
// maker has published since. Pinned by the router_api setting; with `auto`, the interface's
// routes are tried first and the published ones when the answer is a 404 (or 405) that no router
// wrote (it carries no error-type header: a web server's own page for a route it lacks). What
// answered is remembered per router URL, so later commands ask the right routes first; a
// remembered generation that stops answering is discovered again.
import { ApiError, ExitCode, UsageError, WesError } from '../../errors.js';
import type { RouterApiSetting } from '../../config/keys.js';
import type { RouterApi } from '../../protocol/models.js';
import { readMakerHeader } from '../../protocol/maker-names.js';
import { modelsPath } from '../../protocol/model-ids.js';

/** Where a discovered generation is kept between commands (generation-cache.ts). */
export interface GenerationMemory {
  read(routerUrl: string): Promise<RouterApi | undefined>;
  write(routerUrl: string, api: RouterApi): Promise<void>;
}

/** An answer no router wrote: a 404 or 405 without the router's error-type header. */
export function isBareMiss(err: unknown): err is ApiError {
  return err instanceof ApiError && err.origin === 'models' && (err.status === 404 || err.status === 405) && readMakerHeader(err.headers, 'errorType') === undefined;
}

/** Why no generation answered, for the layer that can say what the server is instead. */
export interface NoRouterInfo {
  routerUrl: string;
  /** The catalog routes tried, e.g. ["/v1/models", "/v2/models"]. */
  tried: string[];
  /** The setting, when it pinned one generation. */
  pinned: RouterApi | undefined;
  /** The generation the call needed (queued delivery needs v2). */
  needs: RouterApi | undefined;
  /** The generation this router answered before, if any. */
  known: RouterApi | undefined;
  cause: ApiError;
}

/** What the caller says of a router that is not there, or not as the call needs it (the client itself speaks no command line). */
export interface RouterExplainer {
  /** The error for a router URL where no catalog route answered. */
  noRouter(info: NoRouterInfo): Promise<WesError> | WesError;
  /** The hint for a call that needs the `needs` routes while the setting pins others. */
  pinnedHint?(needs: RouterApi): string;
}

/** The plain verdict, when nothing more is known about the server; `hint`: what the caller tells to do. */
export function noRouterError(info: NoRouterInfo, what?: string, hint?: string): WesError {
  const routes = info.tried.join(' and ');
  const where = what ?? `nothing at ${info.routerUrl} answers as a model router`;
  let message = `${where}: ${routes} answered ${info.cause.status} without the router's error type`;
  if (info.needs === 'v2' && info.known === 'v1') {
    message = `the router at ${info.routerUrl} serves only the interface's /v1 routes, which have no queued delivery (/v2/models answered ${info.cause.status})`;
  }
  return new WesError(message, { exitCode: ExitCode.NOT_FOUND, code: 'no_model_router', status: info.cause.status, origin: 'models', requestId: info.cause.requestId, hint, cause: info.cause });
}

export class RouterGeneration {
  private known: RouterApi | undefined;
  /** What the memory holds for this URL (written again only when it changes). */
  private stored: RouterApi | undefined;
  private read = false;

  /**
   * Asks a generation's catalog without a credential (ModelsClient sets it): with none configured,
   * a request is stopped before it is sent (no_credential), yet a server that has no router at all
   * must be said to have none, not to want a key.
   */
  probeWithoutCredential?: (api: RouterApi) => Promise<unknown>;

  constructor(
    readonly routerUrl: string,
    private readonly setting: RouterApiSetting,
    private readonly memory: GenerationMemory | null = null,
    private readonly explain: RouterExplainer = { noRouter: (info) => noRouterError(info) },
  ) {
    if (setting !== 'auto') this.known = setting;
  }

  /** The generation found so far: pinned, remembered or answered; undefined before any answer. */
  get current(): RouterApi | undefined {
    return this.known;
  }

  /**
   * `send` with the routes of the right generation. `needs` names the only generation that has
   * what the call wants (queued delivery: v2): with `auto` it is asked directly; a pinned other
   * generation is a usage error before any request.
   */
  async call<T>(send: (api: RouterApi) => Promise<T>, needs?: RouterApi, what = 'queued delivery'): Promise<T> {
    const order = await this.order(needs, what);
    let miss: ApiError | undefined;
    for (const api of order) {
      try {
        const value = await send(api);
        await this.found(api, needs);
        return value;
      } catch (err) {
        if (isBareMiss(err)) {
          miss = err;
          continue;
        }
        if (err instanceof WesError && err.code === 'no_credential' && this.probeWithoutCredential) return this.withoutCredential(order, needs, err);
        // A router's own refusal (401, 404 model_not_found, ...) still proves the routes are there.
        if (err instanceof ApiError && err.origin === 'models' && readMakerHeader(err.headers, 'errorType') !== undefined) await this.found(api, needs);
        throw err;
      }
    }
    throw await this.explain.noRouter({
      routerUrl: this.routerUrl,
      tried: order.map(modelsPath),
      pinned: this.setting === 'auto' ? undefined : this.setting,
      needs,
      known: this.setting === 'auto' ? this.known : undefined,
      cause: miss!,
    });
  }

  /** No credential configured: the error stands where a router answers; where none does, that is said instead. */
  private async withoutCredential(order: RouterApi[], needs: RouterApi | undefined, noCredential: WesError): Promise<never> {
    let miss: ApiError | undefined;
    for (const api of order) {
      try {
        await this.probeWithoutCredential!(api);
      } catch (err) {
        if (isBareMiss(err)) {
          miss = err;
          continue;
        }
      }
      throw noCredential;
    }
    throw await this.explain.noRouter({ routerUrl: this.routerUrl, tried: order.map(modelsPath), pinned: this.setting === 'auto' ? undefined : this.setting, needs, known: undefined, cause: miss! });
  }

  private async order(needs: RouterApi | undefined, what: string): Promise<RouterApi[]> {
    if (this.setting !== 'auto') {
      if (needs && needs !== this.setting) {
        throw new UsageError(
          `${what} ${what === 'queued delivery' ? 'is' : 'are'} served only by the published router routes (/${needs}/models); router_api is set to ${this.setting}`,
          this.explain.pinnedHint?.(needs),
        );
      }
      return [this.setting];
    }
    if (!this.read) {
      this.read = true;
      this.stored = await this.memory?.read(this.routerUrl).catch(() => undefined);
      this.known ??= this.stored;
    }
    if (needs) return [needs];
    return this.known === 'v2' ? ['v2', 'v1'] : ['v1', 'v2'];
  }

  /** Remembers what answered; a call that could only ask one generation (`needs`) proves nothing about the other, so it is not written. */
  private async found(api: RouterApi, needs: RouterApi | undefined): Promise<void> {
    if (this.setting !== 'auto') return;
    if (needs) {
      this.known ??= api;
      return;
    }
    this.known = api;
    if (this.stored === api || !this.memory) return;
    this.stored = api;
    await this.memory.write(this.routerUrl, api).catch(() => undefined);
  }
}
