// The maker's names as this server speaks them: the real ones (`X-Comfy-*`, `api_key_comfy_org`),
// as real servers do, or with `names: 'service'` the interface's neutral stand-ins, as an older
// test server that took the interface's word would. Either way the partner key is taken under its
// real name: the neutral server also takes the interface's word, the real one refuses it (the
// reference job API server answers 400 to `api_key_service_org`).
import type { DevState } from '../contract.js';
import { extraDataField, makerHeader, type ExtraDataRole, type MakerHeader } from '../../protocol/maker-names.js';

export function headerName(state: DevState, role: MakerHeader): string {
  return makerHeader(role, state.options.names);
}

/** The `extra_data` fields that may carry a partner credential (the key, or the account's auth token), the real one first. */
function credentialFields(state: DevState, role: ExtraDataRole): string[] {
  const real = extraDataField(role, 'comfy');
  return state.options.names === 'comfy' ? [real] : [real, extraDataField(role, 'service')];
}

/** The `extra_data` fields that may carry the partner-node key, the real one first. */
export function partnerKeyFields(state: DevState): string[] {
  return credentialFields(state, 'apiKey');
}

/** The partner credential of `role` a submit carried, under whichever name this server takes. */
export function partnerKeyOf(state: DevState, extra: Record<string, unknown>, role: ExtraDataRole = 'apiKey'): unknown {
  for (const field of credentialFields(state, role)) if (extra[field] !== undefined) return extra[field];
  return undefined;
}
