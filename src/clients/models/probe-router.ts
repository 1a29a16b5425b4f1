// The router's probe (auth status, doctor, login): the cheapest catalog read, one entry, on the
// routes the setting names; with `auto`, the interface's /v1 routes and then the published /v2
// ones when the first answer is a 404 no router wrote. The result names the routes that answered.
import type { RouterApiSetting } from '../../config/keys.js';
import { modelsPath } from '../../protocol/model-ids.js';
import type { RouterApi } from '../../protocol/models.js';
import type { ProbeResult } from '../probe.js';

export async function probeRouter(setting: RouterApiSetting, probeAt: (path: string) => Promise<{ result: ProbeResult; miss: boolean }>): Promise<ProbeResult> {
  const order: RouterApi[] = setting === 'auto' ? ['v1', 'v2'] : [setting];
  let last: ProbeResult | undefined;
  for (const api of order) {
    const { result, miss } = await probeAt(`${modelsPath(api)}?limit=1`);
    if (!miss) return result.verdict === 'unreachable' ? result : { ...result, router_api: api };
    last = result;
  }
  const tried = order.map(modelsPath).join(' and ');
  return { ...last!, message: `answered ${last!.status} to ${tried}, not as a model router (no error type): no router is served there` };
}
