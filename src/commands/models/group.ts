// `wes models`: discover and run partner models through the model router.
import { defineGroup } from '../group.js';

export default defineGroup({
  command: {
    name: 'models',
    summary: 'Discover and run partner models through the model router',
    group: 'Model router:',
    after: [
      `
Discovery, end to end:
  $ wes models list --all --provider dev
  $ wes models schema dev/upscale
  $ wes models run dev/upscale -i image=@photo.png -i scale=4

Queued delivery (long generations; the published router's routes):
  $ wes models run dev/slow -d '{"duration_ms":5000}' --queue
  $ wes models status @last
  $ wes models result @last --wait -o out.json`,
    ],
  },
  verbs: ['list', 'show', 'schema', 'run', 'status', 'result', 'cancel', 'requests'],
});
