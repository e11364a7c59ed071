// The TLS server article 002's clients fetch from: one small page, HTTP/1.1 keep-alive, on 127.0.0.1.
// Started by tls-server.ts in a process group of its own; prints "port N" once it listens.
import { readFileSync } from 'node:fs';
import https from 'node:https';

const [certFile, keyFile, page] = process.argv.slice(2);
const body = Buffer.from(page ?? '');
const server = https.createServer({ cert: readFileSync(certFile ?? ''), key: readFileSync(keyFile ?? '') }, (_request, response) => {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length });
  response.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`port ${typeof address === 'object' && address ? address.port : 0}`);
});
