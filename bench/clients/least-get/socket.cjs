// The least a node program pays for `jobs get`'s request: one GET on a bare `node:net` socket
// (HTTP/1.1, Connection: close), the body pretty-printed. No HTTP library: the floor under any. It
// reads a whole answer sent with a Content-Length, as the dev-server sends a job (a chunked one fails
// its JSON.parse, and the bench row with it).
//   WES_API_KEY=... node socket.cjs <url>
const net = require('node:net');

const url = new URL(process.argv[2]);
const socket = net.connect(Number(url.port || 80), url.hostname);
socket.write(`GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${process.env.WES_API_KEY}\r\nConnection: close\r\n\r\n`);
const chunks = [];
socket.on('data', (chunk) => chunks.push(chunk));
socket.on('end', () => {
  const answer = Buffer.concat(chunks).toString('utf8');
  const status = Number(answer.slice(9, 12));
  if (status !== 200) {
    process.stderr.write(`socket.cjs: HTTP ${status}\n`);
    process.exit(1);
  }
  process.stdout.write(`${JSON.stringify(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)), null, 2)}\n`);
});
socket.on('error', (err) => {
  process.stderr.write(`socket.cjs: ${err.message}\n`);
  process.exit(1);
});
