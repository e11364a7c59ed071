// The example app's own HTTP server: a JSON API with a list route and a create route.
// PORT and HOST come from the environment (bench sets both); SLOW_MS makes the list route wait and SLOW_WORK
// makes it compute (stand-ins for a regression: a slower backend, a slower function); WORKERS > 1 runs one process
// per worker with node:cluster.
import cluster from 'node:cluster';
import http from 'node:http';

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '127.0.0.1';
const slowMs = Number(process.env.SLOW_MS ?? 0);
const slowWork = Number(process.env.SLOW_WORK ?? 0);
const workers = Number(process.env.WORKERS ?? 1);

// A page of 100 items, serialized on every request: real work for the server, as an API list route does.
const items = Array.from({ length: 100 }, (_, i) => ({
  id: i + 1,
  name: i === 0 ? 'first' : `item ${i + 1}`,
  price: Math.round((i + 1) * 1.37 * 100) / 100,
  tags: ['example', i % 2 ? 'odd' : 'even'],
}));
let nextId = items.length + 1;

function send(res, status, value) {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

// An ETag-style checksum of a page: SLOW_WORK extra passes over it make this one function slower.
function checksum(text) {
  let sum = 0;
  for (let pass = 0; pass <= slowWork; pass++) for (let i = 0; i < text.length; i++) sum = (sum * 31 + text.charCodeAt(i)) | 0;
  return sum;
}

async function handle(req, res) {
  if (req.method === 'GET' && req.url === '/health') return send(res, 200, { ok: true });
  if (req.method === 'GET' && req.url === '/api/items') {
    if (slowMs > 0) await new Promise((resolve) => setTimeout(resolve, slowMs));
    const page = { items, servedAt: new Date().toISOString() };
    return send(res, 200, { ...page, checksum: checksum(JSON.stringify(page.items)) });
  }
  if (req.method === 'POST' && req.url === '/api/items') {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    let input;
    try {
      input = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return send(res, 400, { error: 'body must be JSON' });
    }
    return send(res, 201, { id: nextId++, name: String(input.name ?? '') });
  }
  return send(res, 404, { error: 'not found' });
}

if (workers > 1 && cluster.isPrimary) {
  for (let i = 0; i < workers; i++) cluster.fork();
} else {
  http.createServer((req, res) => void handle(req, res)).listen(port, host);
}
