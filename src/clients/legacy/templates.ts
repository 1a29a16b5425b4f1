// Workflow templates a server offers (GET /api/workflow_templates): on a ComfyUI engine, the example
// workflows of its custom node packs as {pack: [name, ...]}, each served at
// /api/workflow_templates/<pack>/<name>.json; the published cloud API answers an object too
// (getWorkflowTemplates, documented as empty).
import type { HttpClient } from '../../http/client.js';
import { segment } from '../../http/links.js';
import { badResponse, isRecord } from '../shared/response-check.js';

export type TemplateIndex = Record<string, string[]>;

export class TemplatesClient {
  constructor(private readonly http: HttpClient) {}

  /** Template names by pack; null where the route is not served. */
  async list(): Promise<TemplateIndex | null> {
    const res = await this.http.buffer({ family: 'legacy', url: '/api/workflow_templates', accept: [404] });
    if (res.status === 404) return null;
    let body: unknown;
    try {
      body = JSON.parse(res.body.toString('utf8'));
    } catch {
      body = undefined;
    }
    if (!isRecord(body)) throw badResponse('legacy', 'the workflow templates answer is not a JSON object', res);
    const out: TemplateIndex = {};
    for (const [pack, names] of Object.entries(body)) {
      if (Array.isArray(names)) out[pack] = names.filter((n): n is string => typeof n === 'string');
    }
    return out;
  }

  /** One template's bytes; null when the server has none by that name. */
  async read(pack: string, name: string): Promise<Buffer | null> {
    const res = await this.http.buffer({ family: 'legacy', url: `/api/workflow_templates/${segment(pack)}/${segment(`${name}.json`)}`, accept: [404] });
    return res.status === 404 ? null : res.body;
  }
}
