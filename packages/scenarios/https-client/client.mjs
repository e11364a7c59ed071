// Node's https module, trusting only the CA file given.
import { readFileSync } from 'node:fs';
import https from 'node:https';

const [, , url, n, caFile] = process.argv;
const ca = readFileSync(caFile);
const fetchOnce = () =>
  new Promise((resolve, reject) => {
    https
      .get(url, { ca }, (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        response.on('error', reject);
      })
      .on('error', reject);
  });
for (let i = 0; i < Number(n); i++) process.stdout.write(`${await fetchOnce()}\n`);
