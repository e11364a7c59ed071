import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { runDocumentSchema, type CellResult } from '@bench/core';
import { runCli } from '../support/cli.js';
import { watchDescendants } from '../support/descendants.js';
import { k6TestRunSchema } from '../support/k6-testrun-crd.js';
import { testTempDir } from '../support/temp-dir.js';
import { runExportReadme } from '../support/k6-path.js';

// A server of the test's own, counting connections and answering wrongly on purpose now and then:
// on /flaky, every 10th request's socket is destroyed and every 10th (offset) gets a 404.
let server: http.Server;
let base = '';
let connections = 0;
let flaky = 0;
const seenAuthorizations: string[] = [];
const seenUrls: string[] = [];
beforeAll(async () => {
  server = http.createServer((req, res) => {
    const n = req.url === '/flaky' ? flaky++ : -1; // the first /flaky request is bench's verification
    if (req.headers.authorization) seenAuthorizations.push(req.headers.authorization);
    seenUrls.push(req.url ?? '');
    if (n % 10 === 5) return req.socket.destroy();
    if (n % 10 === 6) return res.writeHead(404).end('no');
    res.writeHead(200, { 'content-type': 'text/plain' }).end('Hello World'); // the hello scenario's answer, for the export
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const dir = testTempDir('k6');

async function runJson(args: string[], name: string): Promise<CellResult> {
  const out = path.join(dir, `${name}.json`);
  let watch: ReturnType<typeof watchDescendants> | undefined;
  const run = await runCli([...args, '-w', '0', '-r', 'json', '-o', out], {
    timeoutMs: 120_000,
    onSpawn: (child) => (watch = watchDescendants(child.pid ?? -1)),
  });
  expect(run.code, run.stderr).toBe(0);
  watch?.stop();
  expect(await watch?.survivors()).toEqual([]);
  expect(watch?.seen()).toContain('k6');
  const [result] = runDocumentSchema.parse(JSON.parse(readFileSync(out, 'utf8'))).results;
  return result!;
}

/** Every request's latency in µs (blocked + duration, as bench counts it), straight from k6's CSV files. */
function pooledLatencies(files: readonly string[]): { count: number; micros: number[] } {
  const micros: number[] = [];
  let count = 0;
  for (const file of files) {
    let duration = 0;
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      const [metric, , value] = line.split(',');
      if (metric === 'http_reqs') count++;
      if (metric === 'http_req_duration') duration = Number(value);
      if (metric === 'http_req_blocked') micros.push(Math.max(1, Math.round((duration + Number(value)) * 1000)));
    }
  }
  return { count, micros: micros.sort((a, b) => a - b) };
}

describe('k6 engine', () => {
  it('drives a real server for -n requests: every answer checked, engine and version recorded', async () => {
    const r = await runJson(['run', 'hello', '-t', 'node', '-c', '4', '-n', '400', '--engine', 'k6'], 'hello');
    expect(r).toMatchObject({ status: 'ok', requests: 400, failed: 0, non2xx: 0, statusCodes: { 200: 400 }, engine: { name: 'k6' } });
    expect(r.engine?.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(r.latency.p99).toBeGreaterThan(0);
    expect(r.bytes.body).toBe(400 * 11); // "Hello World"
    expect(r.generators).toBeUndefined();
  });

  it('keep-alive off opens a connection per request; keep-alive on reuses them', async () => {
    let before = connections;
    const off = await runJson(['run', '--url', `${base}/`, '-c', '2', '-n', '60', '--engine', 'k6', '--no-keepalive'], 'no-keepalive');
    expect(off).toMatchObject({ requests: 60, failed: 0, keepAlive: false });
    expect(connections - before).toBeGreaterThanOrEqual(60);
    before = connections;
    const on = await runJson(['run', '--url', `${base}/`, '-c', '2', '-n', '60', '--engine', 'k6'], 'keepalive');
    expect(on).toMatchObject({ requests: 60, failed: 0, keepAlive: true });
    expect(connections - before).toBeLessThanOrEqual(4); // bench's verification, then k6's two
  });

  it('counts failures by kind: a dropped connection fails, a 404 is non-2xx and not a failure', async () => {
    const r = await runJson(['run', '--url', `${base}/flaky`, '-c', '1', '-n', '100', '--engine', 'k6', '--no-keepalive'], 'flaky');
    expect(r.requests).toBe(100);
    expect(r.failedBreakdown.receive + r.failedBreakdown.exceptions).toBe(10);
    expect(r.failed).toBe(10);
    expect(r.non2xx).toBe(10);
    expect(r.statusCodes).toEqual({ 200: 80, 404: 10 });
  });

  it('--generators 2 splits one run over two k6 processes and reports one merged row', async () => {
    const r = await runJson(['run', 'hello', '-t', 'node', '-c', '20', '-d', '2', '--generators', '2'], 'generators');
    expect(r).toMatchObject({
      status: 'ok',
      failed: 0,
      engine: { name: 'k6' },
      generators: { count: 2, segments: ['0:1/2', '1/2:1'], sharedHost: true },
    });
    expect(r.resources?.client?.processes).toBeGreaterThanOrEqual(2);
  });

  it('refuses what it cannot do, in one line, exit 2', async () => {
    const wrk = await runCli(['run', 'hello', '-t', 'node', '-n', '10', '--engine', 'wrk', '--generators', '2']);
    expect(wrk.code).toBe(2);
    expect(wrk.stderr.trim()).toMatch(
      /^bench: BENCH_ERR_ENGINE_UNSUPPORTED: engine "wrk" cannot do this: only k6 splits a run over generators/,
    );
    const few = await runCli(['run', 'hello', '-t', 'node', '-c', '2', '-n', '10', '--generators', '4']);
    expect(few.code).toBe(2);
    expect(few.stderr.trim()).toMatch(
      /^bench: BENCH_ERR_\w+: .*--generators 4 splits the connections between k6 processes: -c must be at least 4/,
    );
    const missing = await runCli(['run', 'hello', '-t', 'node', '-n', '10', '--engine', 'k6'], {
      env: { BENCH_K6_BINARY: '/nonexistent/k6' },
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toContain('go install go.k6.io/k6@v1.8.1');
  });
});

describe('bench export k6 / bench import', () => {
  it('writes a TestRun that matches the k6-operator CRD, and its README runs; import merges the parts exactly and renders everywhere', async () => {
    const out = path.join(dir, 'export');
    const exported = await runCli(['export', 'k6', 'hello', '--url', base, '-c', '4', '-n', '300', '--generators', '2', '--out', out]);
    expect(exported.code, exported.stderr).toBe(0);
    for (const file of ['script.js', 'testrun.yaml', 'configmap.yaml', 'results-pvc.yaml', 'README.md', 'bench-export.json'])
      expect(exported.stdout).toContain(file);

    const manifest = k6TestRunSchema.parse(parseYaml(readFileSync(path.join(out, 'testrun.yaml'), 'utf8')));
    expect(manifest.spec.parallelism).toBe(2);
    expect(manifest.spec.arguments).toContain('--out csv=fileName=/results/$(POD_NAME).csv,timeFormat=unix_micro');
    const configMap = parseYaml(readFileSync(path.join(out, 'configmap.yaml'), 'utf8')) as {
      metadata: { name: string };
      data: Record<string, string>;
    };
    expect(configMap.metadata.name).toBe(manifest.spec.script.configMap?.name);
    expect(configMap.data['script.js']).toBe(readFileSync(path.join(out, 'script.js'), 'utf8'));

    // the README's commands for hosts of one's own: each part started at once, here on one machine
    const runs = await runExportReadme(out);
    expect(runs).toHaveLength(2);
    for (const run of runs) expect(run.code, run.stderr).toBe(0);

    const files = readdirSync(path.join(out, 'results')).map((f) => path.join(out, 'results', f));
    const pooled = pooledLatencies(files);
    expect(pooled.count).toBe(300);

    const imported = await runCli(['import', out, '-r', 'markdown', '-r', 'ab', '-r', 'json', '-o', path.join(dir, 'imported.json')]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(/Complete requests: +300/);
    expect(imported.stdout).toMatch(/^\| 127\.0\.0\.1:\d+ \| 4 \|/m);
    const doc = runDocumentSchema.parse(JSON.parse(readFileSync(path.join(dir, 'imported.json'), 'utf8')));
    const [result] = doc.results;
    expect(result).toMatchObject({
      requests: pooled.count,
      failed: 0,
      engine: { name: 'k6' },
      generators: { count: 2, sharedHost: false },
    });
    // the merged p99 is the p99 of every sample pooled (nearest rank), to the microsecond
    const rank = Math.ceil(0.99 * pooled.micros.length) - 1;
    expect(Math.round((result?.latency.p99 ?? 0) * 1000)).toBe(pooled.micros[rank]);
    expect(Math.round((result?.latency.max ?? 0) * 1000)).toBe(pooled.micros.at(-1));
    expect(JSON.parse(readFileSync(path.join(out, 'bench-results.json'), 'utf8')).results[0].requests).toBe(300);

    // the file imported renders again through every reporter, in one bench report
    const report = await runCli(['report', path.join(dir, 'imported.json'), '-r', 'markdown', '-r', 'ab', '-r', 'json']);
    expect(report.code, report.stderr).toBe(0);
    for (const output of [/^\| 127\.0\.0\.1:\d+ \| 4 \|/m, /Complete requests: +300/, /"schemaVersion"/])
      expect(report.stdout).toMatch(output);
    const compare = await runCli(['compare', path.join(dir, 'imported.json'), path.join(out, 'bench-results.json')]);
    expect(compare.code, compare.stderr).toBe(0);
  });

  it("keeps every secret out of the script, the ConfigMap and the README: a Secret and secrets.env hold them, and the README's run sends them", async () => {
    const out = path.join(dir, 'secrets');
    const token = 'EXPORT-TOKEN-v2w3';
    const password = 'EXPORT-PASSWORD-x4y5';
    const project = path.join(dir, 'secret-project');
    mkdirSync(project, { recursive: true });
    writeFileSync(
      path.join(project, 'bench.config.json'),
      JSON.stringify({
        scenarios: [{ name: 'private', path: '/private', headers: { Authorization: `Bearer ${token}`, 'X-Plain': 'seen' } }],
      }),
    );
    const url = base.replace('http://', `http://user:${password}@`);
    const exported = await runCli(['export', 'k6', 'private', '--url', url, '-c', '2', '-n', '20', '--out', out], { cwd: project });
    expect(exported.code, exported.stderr).toBe(0);
    const written = readdirSync(out).filter((f) => f !== 'results');
    expect(written.sort()).toEqual(
      [
        'README.md',
        'bench-export.json',
        'configmap.yaml',
        'results-pvc.yaml',
        'script.js',
        'secret.yaml',
        'secrets.env',
        'testrun.yaml',
      ].sort(),
    );
    for (const file of written.filter((f) => !f.startsWith('secret')))
      for (const secret of [token, password]) expect(readFileSync(path.join(out, file), 'utf8'), file).not.toContain(secret);
    for (const stream of [exported.stdout, exported.stderr]) expect(stream).not.toContain(password);
    expect(readFileSync(path.join(out, 'script.js'), 'utf8')).toContain('__ENV.BENCH_SECRET_1');
    for (const file of ['secret.yaml', 'secrets.env']) expect(statSync(path.join(out, file)).mode & 0o777).toBe(0o600);
    const secret = parseYaml(readFileSync(path.join(out, 'secret.yaml'), 'utf8')) as { kind: string; stringData: Record<string, string> };
    expect(secret.kind).toBe('Secret');
    expect(Object.values(secret.stringData)).toContain(`Bearer ${token}`);
    const manifest = k6TestRunSchema.parse(parseYaml(readFileSync(path.join(out, 'testrun.yaml'), 'utf8')));
    expect(JSON.stringify(manifest.spec.runner)).toContain('"secretKeyRef"');
    // run as its README says, the script sends each secret it read from its environment
    const before = seenAuthorizations.length;
    const runs = await runExportReadme(out);
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    expect(seenAuthorizations.slice(before)).toContain(`Bearer ${token}`);
    const imported = await runCli(['import', out, '-r', 'json', '-o', path.join(dir, 'secret-import.json')]);
    expect(imported.code, imported.stderr).toBe(0);
    for (const file of [path.join(dir, 'secret-import.json'), path.join(out, 'bench-results.json')])
      for (const secret of [token, password]) expect(readFileSync(file, 'utf8')).not.toContain(secret);
  });

  it("keeps a data file's rows out of the script and the ConfigMap: data.json and the Secret hold them, and the README's run reads them", async () => {
    const out = path.join(dir, 'data-export');
    const row = 'ROW-SECRET-a1b2';
    const project = path.join(dir, 'data-project');
    mkdirSync(project, { recursive: true });
    writeFileSync(path.join(project, 'users.csv'), `name,password\nalice,${row}\n`);
    writeFileSync(
      path.join(project, 'bench.config.json'),
      JSON.stringify({
        scenarios: [
          {
            name: 'by-user',
            path: '/users/{{row.name}}?p={{row.password}}',
            data: { file: 'users.csv', order: 'sequential', per: 'request' },
          },
        ],
      }),
    );
    const exported = await runCli(['export', 'k6', 'by-user', '--url', base, '-c', '1', '-n', '4', '--out', out], { cwd: project });
    expect(exported.code, exported.stderr).toBe(0);
    for (const file of ['script.js', 'configmap.yaml', 'README.md', 'bench-export.json', 'testrun.yaml'])
      expect(readFileSync(path.join(out, file), 'utf8'), file).not.toContain(row);
    expect(statSync(path.join(out, 'data.json')).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path.join(out, 'data.json'), 'utf8'))).toEqual([{ name: 'alice', password: row }]);
    const secret = parseYaml(readFileSync(path.join(out, 'secret.yaml'), 'utf8')) as { stringData: Record<string, string> };
    expect(secret.stringData['data.json']).toContain(row);
    const manifest = k6TestRunSchema.parse(parseYaml(readFileSync(path.join(out, 'testrun.yaml'), 'utf8')));
    expect(JSON.stringify(manifest.spec.runner)).toContain('"BENCH_DATA_FILE"');
    expect(readFileSync(path.join(out, 'README.md'), 'utf8')).toContain('kubectl apply -f secret.yaml');
    // run as its README says, the script opens data.json beside it and sends its row
    const before = seenUrls.length;
    const runs = await runExportReadme(out);
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    expect(seenUrls.slice(before)).toContain(`/users/alice?p=${row}`);
  });

  it('import refuses an incomplete set of sample files, in one line, exit 2', async () => {
    const out = path.join(dir, 'incomplete');
    expect((await runCli(['export', 'hello', 'k6', '--url', base])).code).toBe(2);
    const exported = await runCli(['export', 'k6', 'hello', '--url', 'http://10.0.0.2:8080/', '--generators', '4', '--out', out]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(k6TestRunSchema.parse(parseYaml(readFileSync(path.join(out, 'testrun.yaml'), 'utf8'))).spec.parallelism).toBe(4);
    const run = await runCli(['import', out]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toMatch(/^bench: BENCH_ERR_\w+: .*holds 0 sample file\(s\) but the run was split over 4 generator\(s\)/);
  });
});
