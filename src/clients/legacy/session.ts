// A v1 command's view of its server: the typed client, which server it is (the cloud or a
// self-hosted engine, found once per command), and the status reader that fits it.
import type { LegacyClient } from './client.js';
import type { EngineIdentity } from './engine.js';
import type { StatusReader } from './prompt-state.js';

export interface LegacySession {
  client: LegacyClient;
  /** Which server this is; null when it could not be asked now (the first status read finds out). */
  identity: EngineIdentity | null;
  /** A self-hosted ComfyUI engine (known as one). */
  engine: boolean;
  /** The REST status reader that fits the server. */
  reader(): StatusReader;
}
