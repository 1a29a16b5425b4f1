// GET /api/object_info[/{class}] and GET /api/features.
import type { RequestContext } from '../contract.js';
import { sendJson } from '../http-kit.js';
import type { V1Features } from '../../protocol/legacy.js';

export async function objectInfo(ctx: RequestContext): Promise<void> {
  sendJson(ctx, 200, ctx.state.engine.objectInfo());
}

/** Local-engine compatibility: an unknown class answers an empty object, not 404. */
export async function objectInfoOfClass(ctx: RequestContext, className: string): Promise<void> {
  const info = ctx.state.engine.objectInfo();
  sendJson(ctx, 200, Object.hasOwn(info, className) ? { [className]: info[className] } : {});
}

export async function features(ctx: RequestContext): Promise<void> {
  const answer: V1Features = { supports_preview_metadata: true, max_upload_size: ctx.state.options.maxUploadBytes };
  sendJson(ctx, 200, answer);
}
