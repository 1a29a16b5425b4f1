// GET /system_stats: what identifies a self-hosted engine and its version (`system.comfyui_version`).
import { freemem, platform, totalmem } from 'node:os';
import type { RequestContext } from '../contract.js';
import { sendJson } from '../http-kit.js';
import { engineTraits } from './version.js';

/** The release fields 0.3.64 adds to `system` (its values as recorded). */
const NEWER_SYSTEM_FIELDS = { required_frontend_version: '1.27.10', installed_templates_version: null, required_templates_version: '0.1.94' };

export async function systemStats(ctx: RequestContext): Promise<void> {
  const os = platform() === 'win32' ? 'nt' : 'posix';
  const { version, featureFlags: newer } = engineTraits(ctx.state);
  sendJson(ctx, 200, {
    system: {
      os,
      ram_total: totalmem(),
      ram_free: freemem(),
      comfyui_version: version,
      ...(newer ? NEWER_SYSTEM_FIELDS : {}),
      python_version: '3.12.3 (wes dev-server imitation)',
      pytorch_version: '2.6.0+cpu',
      embedded_python: false,
      argv: ['main.py', '--cpu', '--listen', ctx.state.options.host],
    },
    devices: [{ name: 'cpu', type: 'cpu', index: null, vram_total: 0, vram_free: 0, torch_vram_total: 0, torch_vram_free: 0 }],
  });
}
