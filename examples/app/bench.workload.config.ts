import { defineConfig } from '@bench/runner';

// `npm run bench:workload`: each connection logs in once, then sends 80% reads of a random item by id and 20%
// creates with a unique name, in one load on one server; the report has a row per step.
export default defineConfig({
  targets: [{ name: 'app', command: 'node', args: ['server.mjs'], ready: { path: '/health' } }],
  scenarios: [
    {
      name: 'shop',
      steps: [
        {
          name: 'login',
          once: true,
          method: 'POST',
          path: '/api/login',
          body: { user: 'demo', password: 'demo' },
          capture: { token: { json: 'token' } },
        },
        {
          mix: [
            {
              name: 'get-item',
              weight: 80,
              path: '/api/items/{{randomInt 1 100}}',
              headers: { authorization: 'Bearer {{token}}' },
              expect: { status: 200, json: {} },
            },
            {
              name: 'create-item',
              weight: 20,
              method: 'POST',
              path: '/api/items',
              headers: { authorization: 'Bearer {{token}}' },
              body: { name: 'item-{{counter}}' },
              expect: { status: 201 },
            },
          ],
        },
      ],
    },
  ],
  reporters: ['markdown', ['json', { out: 'workload-results.json' }]],
  defaults: { concurrency: [10], durationSeconds: 3, warmupSeconds: 1 },
  thresholds: {
    'shop/app': { failed: '==0' },
  },
});
