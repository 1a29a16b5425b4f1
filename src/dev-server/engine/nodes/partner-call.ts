import { gradientImage } from '../image.js';
import { hash32 } from '../prng.js';
import { NodeRaised, type NodeClass } from './types.js';
import { PARTNER_KEY_FIELD, PARTNER_TOKEN_FIELD } from '../../../protocol/maker-names.js';

/** Partner keys (extra_data.api_key_comfy_org) starting with this are refused at submit: 402 insufficient_credits. */
export const INSUFFICIENT_KEY_PREFIX = 'insufficient';
/** ...and values starting with this are accepted, then the node raises InsufficientFundsError when it runs. */
export const DRAINED_KEY_PREFIX = 'drained';

const FRAME = { file: '/srv/engine/comfy_api_nodes/apis/client.py', line: 412, func: 'request', code: 'raise ApiError(response)' };

export const PartnerCall: NodeClass = {
  name: 'PartnerCall',
  display_name: 'Partner Call',
  category: 'api node',
  description: 'Calls a partner model; needs extra_data.api_key_comfy_org (or, on /api/prompt, auth_token_comfy_org) in the submit body.',
  required: { prompt: { type: 'STRING', default: '', multiline: true } },
  outputs: [{ type: 'IMAGE', name: 'IMAGE' }],
  output_node: false,
  async run(inputs, ctx) {
    // As the maker's partner nodes: the API key, else the signed-in account's auth token.
    const key = [ctx.partnerKey, ctx.partnerToken].find((v): v is string => typeof v === 'string' && v.length > 0);
    if (key === undefined) {
      throw new NodeRaised('ValidationError', `Unauthorized: PartnerCall needs extra_data.${PARTNER_KEY_FIELD} (a partner-node key) or ${PARTNER_TOKEN_FIELD}`, FRAME);
    }
    ctx.log(`PartnerCall: POST /proxy/partner/generate (prompt ${JSON.stringify(inputs.prompt)})`);
    await ctx.wait(2 * ctx.stepMs);
    if (key.startsWith(DRAINED_KEY_PREFIX)) {
      throw new NodeRaised('InsufficientFundsError', 'Payment required: your balance is too low for partner nodes', FRAME);
    }
    return [gradientImage(256, 256, hash32(inputs.prompt as string))];
  },
};
