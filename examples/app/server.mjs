// The example app's own HTTP server: a JSON API with a list route, a create route, a login, and a route by id that
// only a logged-in client may read (a token per login, sent as `Authorization: Bearer ...`); /api/stats counts what
// each route answered, so a benchmark's numbers can be checked against the server's own.
// PORT and HOST come from the environment (bench sets both); SLOW_MS makes the list route wait and SLOW_WORK
// makes it compute (stand-ins for a regression: a slower backend, a slower function); WORKERS > 1 runs one process
// per worker with node:cluster.
import cluster from 'node:cluster';
import { randomBytes } from 'node:crypto';
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
const created = new Map();
const tokens = new Set();
const counts = { login: 0, byId: 0, create: 0, list: 0, refused: 0 };

function send(res, status, value) {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

// An ETag-style checksum of a page, a pass of checksum at a time: SLOW_WORK extra passes make checksum run more.
function etag(text) {
  let sum = 0;
  for (let pass = 0; pass <= slowWork; pass++) sum = checksum(sum, text);
  return sum;
}

// One pass over the text. Small: once etag is hot, V8 inlines it there (a profile still names it, marked inferred).
function checksum(sum, text) {
  for (let i = 0; i < text.length; i++) sum = (sum * 31 + text.charCodeAt(i)) | 0;
  return sum;
}

async function readJson(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

const loggedIn = (req) => tokens.has(String(req.headers.authorization ?? '').replace(/^Bearer /, ''));

async function handle(req, res) {
  if (req.method === 'GET' && req.url === '/health') return send(res, 200, { ok: true });
  if (req.method === 'GET' && req.url === '/api/stats') return send(res, 200, counts);
  if (req.method === 'POST' && req.url === '/api/login') {
    const input = await readJson(req);
    if (input?.user !== 'demo' || input?.password !== 'demo') return send(res, 401, { error: 'wrong user or password' });
    counts.login++;
    const token = randomBytes(16).toString('hex');
    tokens.add(token);
    return send(res, 200, { token });
  }
  const byId = req.method === 'GET' && /^\/api\/items\/(\d+)$/.exec(req.url ?? '');
  if (byId) {
    if (!loggedIn(req)) {
      counts.refused++;
      return send(res, 401, { error: 'log in first (POST /api/login)' });
    }
    counts.byId++;
    const id = Number(byId[1]);
    const item = items[id - 1] ?? created.get(id);
    return item ? send(res, 200, item) : send(res, 404, { error: `no item ${id}` });
  }
  if (req.method === 'GET' && req.url === '/api/items') {
    counts.list++;
    if (slowMs > 0) await new Promise((resolve) => setTimeout(resolve, slowMs));
    const page = { items, servedAt: new Date().toISOString() };
    return send(res, 200, { ...page, checksum: etag(JSON.stringify(page.items)) });
  }
  if (req.method === 'POST' && req.url === '/api/items') {
    const input = await readJson(req);
    if (input === undefined) return send(res, 400, { error: 'body must be JSON' });
    counts.create++;
    const item = { id: nextId++, name: String(input.name ?? '') };
    // a logged-in client's items are kept (and readable by id); anonymous creates are answered only
    if (loggedIn(req)) created.set(item.id, item);
    return send(res, 201, item);
  }
  return send(res, 404, { error: 'not found' });
}

if (workers > 1 && cluster.isPrimary) {
  for (let i = 0; i < workers; i++) cluster.fork();
} else {
  http.createServer((req, res) => void handle(req, res)).listen(port, host);
}
