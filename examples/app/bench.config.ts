import { defineConfig } from '@bench/runner';

// `npm run bench` starts the app's server, checks both routes, drives each for 2 s three times,
// stops everything, prints a markdown table, keeps every number in results.json, and fails when a
// threshold breaks.
export default defineConfig({
  targets: [{ name: 'app', command: 'node', args: ['server.mjs'], ready: { path: '/health' } }, './targets/app-cluster.mjs'],
  scenarios: [
    {
      name: 'list-items',
      path: '/api/items',
      expect: { status: 200, contentType: 'application/json', json: { items: [{ id: 1, name: 'first' }] } },
    },
    { name: 'create-item', method: 'POST', path: '/api/items', body: { name: 'new' }, expect: { status: 201, json: { name: 'new' } } },
  ],
  reporters: ['markdown', ['json', { out: 'results.json' }], ['./reporters/summary.mjs', { out: 'summary.txt' }]],
  defaults: { concurrency: [10], durationSeconds: 2, warmupSeconds: 1, repeat: 3 },
  thresholds: {
    '*': { failed: '==0', non2xx: '==0' },
    'list-items': { p99: '<1000' },
  },
});
