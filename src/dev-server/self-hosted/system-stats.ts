// GET /system_stats: what identifies a self-hosted engine and its version (`system.comfyui_version`).
import { freemem, platform, totalmem } from 'node:os';
import type { RequestContext } from '../contract.js';
import { sendJson } from '../http-kit.js';

/** The engine release whose answers this deployment imitates (the observations' ComfyUI 0.3.18). */
export const IMITATED_ENGINE_VERSION = '0.3.18';

export async function systemStats(ctx: RequestContext): Promise<void> {
  const os = platform() === 'win32' ? 'nt' : 'posix';
  sendJson(ctx, 200, {
    system: {
      os,
      ram_total: totalmem(),
      ram_free: freemem(),
      comfyui_version: IMITATED_ENGINE_VERSION,
      python_version: '3.12.3 (wes dev-server imitation)',
      pytorch_version: '2.6.0+cpu',
      embedded_python: false,
      argv: ['main.py', '--cpu', '--listen', ctx.state.options.host],
    },
    devices: [{ name: 'cpu', type: 'cpu', index: null, vram_total: 0, vram_free: 0, torch_vram_total: 0, torch_vram_free: 0 }],
  });
}
