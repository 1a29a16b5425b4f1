// `wes legacy`: the deprecated cloud API v1, and the API of a self-hosted ComfyUI engine. Every
// command's error path asks missing-job-api.ts whether a job API v2 command met such an engine.
import { defineGroup } from '../group.js';

const DEPRECATED = 'Deprecated cloud API v1, and the API of a self-hosted ComfyUI engine (found by itself: --engine). Where the server has a job API v2 equivalent, each command names it once on stderr (--quiet hides it).';

export default defineGroup({
  command: {
    name: 'legacy',
    summary: 'Deprecated cloud API v1: prompts, uploads, status, queue, WebSocket progress',
    group: 'Cloud API v1 (deprecated):',
    after: [`\n${DEPRECATED}`],
  },
  verbs: ['object-info', 'upload', 'prompt', 'status', 'watch', 'list', 'queue', 'queue-delete', 'queue-clear', 'interrupt', 'view'],
  explainers: ['missing-job-api'],
});
