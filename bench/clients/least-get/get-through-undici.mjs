// One GET through undici's Client with a bare dispatch handler, the JSON answer pretty-printed on
// stdout; the process exits 0 once it is written and the client is closed, 1 on any failure.
// @ts-nocheck undici's internal file has no declarations
import Client from 'undici/lib/dispatcher/client.js';

export function printJob(url) {
  // wes gives every Client a maxHeaderSize: without one, undici loads node:http to read Node's default.
  const client = new Client(url.origin, { maxHeaderSize: 16 * 1024 });
  const chunks = [];
  let status = 0;
  const fail = (message) => {
    process.stderr.write(`least-get undici: ${message}\n`);
    process.exit(1);
  };
  client.dispatch(
    { method: 'GET', path: `${url.pathname}${url.search}`, headers: { authorization: `Bearer ${process.env.WES_API_KEY}` } },
    {
      onConnect() {},
      onHeaders(statusCode) {
        status = statusCode;
        return true;
      },
      onData(chunk) {
        chunks.push(chunk);
        return true;
      },
      onComplete() {
        if (status !== 200) fail(`HTTP ${status}`);
        process.stdout.write(`${JSON.stringify(JSON.parse(Buffer.concat(chunks).toString('utf8')), null, 2)}\n`);
        client.destroy().then(() => process.exit(0));
      },
      onError(err) {
        fail(err.message);
      },
    },
  );
}
