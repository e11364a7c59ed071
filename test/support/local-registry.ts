import { cpSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { benchCacheDir, findFreePort, spawnGroup, waitForHttp, type GroupProcess } from '@bench/core';
import { repoRoot, runProcess } from './cli.js';

export interface LocalRegistry {
  /** http://127.0.0.1:PORT/ */
  readonly url: string;
  /** An npm userconfig that publishes to and installs from this registry (a throwaway user's token). */
  readonly npmrc: string;
  readonly process: GroupProcess;
  stop(): Promise<void>;
}

// npm's config from the environment an outer `npm test` sets would override the userconfig: leave it out.
export const npmEnv = (): NodeJS.ProcessEnv =>
  Object.fromEntries(Object.keys(process.env).map((key) => [key, /^npm_config_/i.test(key) ? undefined : process.env[key]]));

/** The registry this machine's npm installs from (the uplink for everything that is not @bench/*). */
async function upstreamRegistry(): Promise<string> {
  const answer = await runProcess('npm', ['config', 'get', 'registry'], { env: npmEnv(), timeoutMs: 30_000 });
  const url = answer.stdout.trim();
  if (answer.code !== 0 || !/^https?:\/\//.test(url)) throw new Error(`npm config get registry gave "${url}": ${answer.stderr}`);
  return url;
}

// @bench/* is served from this registry's own storage only; every other package through the uplink.
const config = (dir: string, port: number, uplink: string) => `storage: ${JSON.stringify(path.join(dir, 'storage'))}
auth:
  htpasswd:
    file: ${JSON.stringify(path.join(dir, 'htpasswd'))}
    # the throwaway user's password at bcrypt's lowest cost: npm sends its token with every request, and verdaccio
    # checks the password behind it each time (bcryptjs at the default cost of 10 took 25 s of CPU in one install)
    rounds: 4
uplinks:
  upstream:
    url: ${JSON.stringify(uplink)}
    timeout: 60s
    # a package's metadata cached by an earlier run is fresh enough: an install asks the uplink for new ones only
    maxage: 30d
packages:
  '@bench/*':
    access: $all
    publish: $authenticated
    unpublish: $authenticated
  '**':
    access: $all
    publish: $authenticated
    proxy: upstream
listen: 127.0.0.1:${port}
log: { type: stdout, format: pretty, level: warn }
`;

/** A user made for this registry alone; its token goes into the userconfig. */
async function addUser(url: string): Promise<string> {
  const name = 'bench-test';
  const answer = await fetch(`${url}-/user/org.couchdb.user:${name}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, password: `throwaway-${process.pid}-${Date.now()}` }),
  });
  const body = (await answer.json()) as { token?: string };
  if (!answer.ok || !body.token) throw new Error(`could not add a user to ${url}: HTTP ${answer.status} ${JSON.stringify(body)}`);
  return body.token;
}

// Third-party packages (never @bench/*, published fresh each time, nor the registry's own list of them) are kept
// between runs in bench's cache: an install after the first reads them from disk, not through the uplink.
const thirdParty = (from: string) => !/[/\\](@bench|\.verdaccio-db\.json)$/.test(from);

/** Starts verdaccio on 127.0.0.1 in a process group of its own, with its storage, config and users in `dir`. */
export async function startLocalRegistry(dir: string): Promise<LocalRegistry> {
  const storage = path.join(dir, 'storage');
  const cache = benchCacheDir('verdaccio-storage');
  if (cache && existsSync(cache)) cpSync(cache, storage, { recursive: true, filter: thirdParty });
  const keep = () => {
    if (!cache || !existsSync(storage)) return;
    rmSync(cache, { recursive: true, force: true });
    cpSync(storage, cache, { recursive: true, filter: thirdParty });
  };
  const port = await findFreePort();
  const url = `http://127.0.0.1:${port}/`;
  const configFile = path.join(dir, 'verdaccio.yaml');
  writeFileSync(configFile, config(dir, port, await upstreamRegistry()));
  const bin = path.join(
    path.dirname(createRequire(path.join(repoRoot, 'package.json')).resolve('verdaccio/package.json')),
    'bin',
    'verdaccio',
  );
  const proc = spawnGroup(process.execPath, [bin, '--config', configFile], { name: 'verdaccio', cwd: dir, env: npmEnv() });
  try {
    await waitForHttp(`${url}-/ping`, { timeoutMs: 30_000, processes: [proc] });
    const npmrc = path.join(dir, 'npmrc');
    writeFileSync(npmrc, `registry=${url}\n//127.0.0.1:${port}/:_authToken=${await addUser(url)}\n`);
    return {
      url,
      npmrc,
      process: proc,
      stop: async () => {
        await proc.stop(2000);
        keep();
      },
    };
  } catch (error) {
    await proc.stop(2000);
    throw error;
  }
}
