// The reference for `wes legacy watch`: a bare `ws` client that reads every message, parses the
// JSON ones and stops at the prompt's end. Prints {messages, bytes} as JSON.
//   node ws-count.mjs <ws-url-with-token> <prompt_id>
import { createRequire } from 'node:module';

const require = createRequire(new URL('../../package.json', import.meta.url));
const WebSocket = require('ws');
const [url, promptId] = process.argv.slice(2);
const END = new Set(['execution_success', 'execution_error', 'execution_interrupted']);

const ws = new WebSocket(url);
let messages = 0;
let bytes = 0;
ws.on('message', (data, isBinary) => {
  messages += 1;
  bytes += data.length;
  if (isBinary) return;
  const message = JSON.parse(data.toString());
  if (END.has(message.type) && message.data?.prompt_id === promptId) {
    process.stdout.write(`${JSON.stringify({ messages, bytes, end: message.type })}\n`);
    ws.close();
  }
});
ws.on('error', (err) => {
  console.error(String(err));
  process.exit(1);
});
