import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { benchCacheDir, findBinary, notInstalled, runGroupToCompletion, versionFrom } from '@bench/core';

export type HttpsClientName = 'go' | 'java' | 'php' | 'node' | 'perl';

export interface ClientAvailability {
  readonly ok: boolean;
  readonly version?: string;
  readonly reason?: string;
  readonly aptPackages?: readonly string[];
}

/** One language's plain standard-library HTTPS client, as article 002 ran it. */
export interface HttpsClient {
  readonly name: HttpsClientName;
  readonly label: string;
  available(): ClientAvailability;
  /** Builds what needs building (once, cached) and returns the command line before `URL N CAFILE`. */
  prepare(sources: string, workDir: string): Promise<readonly string[]>;
}

const missing = (what: string, packages: readonly string[]): ClientAvailability => notInstalled([what], packages);

// A build kept by the hash of its source: later runs skip it; made beside and renamed in, so two runs at once are safe.
async function cachedBuild(kind: string, source: string, workDir: string, build: (out: string) => Promise<void>): Promise<string> {
  const hash = createHash('sha256').update(readFileSync(source)).digest('hex').slice(0, 16);
  const cache = benchCacheDir(`https-clients/${kind}`);
  const out = path.join(cache ?? workDir, hash);
  if (existsSync(out)) return out;
  const building = `${out}.${process.pid}.building`;
  mkdirSync(building, { recursive: true });
  try {
    await build(building);
    renameSync(building, out);
  } catch (error) {
    rmSync(building, { recursive: true, force: true });
    if (!existsSync(out)) throw error;
  }
  return out;
}

export const httpsClients: readonly HttpsClient[] = [
  {
    name: 'go',
    label: 'Go',
    available() {
      const go = findBinary('go');
      return go ? { ok: true, version: versionFrom(go, ['version'], /go version go(\S+)/) } : missing('go', ['golang-go']);
    },
    async prepare(sources, workDir) {
      const source = path.join(sources, 'client.go');
      const dir = await cachedBuild('go', source, workDir, async (out) => {
        await runGroupToCompletion(findBinary('go') ?? 'go', ['build', '-o', path.join(out, 'client'), source], {
          name: 'go build',
          cwd: out,
        });
      });
      return [path.join(dir, 'client')];
    },
  },
  {
    name: 'java',
    label: 'Java',
    available() {
      const java = findBinary('java');
      if (!java || !findBinary('javac')) return missing('java and javac', ['default-jdk-headless']);
      return { ok: true, version: versionFrom(java, ['-version'], /version "([^"]+)"/) };
    },
    async prepare(sources, workDir) {
      const source = path.join(sources, 'Client.java');
      const dir = await cachedBuild('java', source, workDir, async (out) => {
        await runGroupToCompletion(findBinary('javac') ?? 'javac', ['-nowarn', '-d', out, source], { name: 'javac', cwd: out });
      });
      return [findBinary('java') ?? 'java', '-cp', dir, 'Client'];
    },
  },
  {
    name: 'php',
    label: 'PHP',
    available() {
      const php = findBinary('php');
      if (!php) return missing('php', ['php-cli']);
      if (versionFrom(php, ['-r', 'echo extension_loaded("openssl") ? "yes" : "no";'], /(yes|no)/) !== 'yes')
        return { ok: false, reason: "PHP's openssl extension is not loaded" };
      return { ok: true, version: versionFrom(php, ['-v'], /PHP (\d+\.\d+\.\d+)/) };
    },
    async prepare(sources) {
      return [findBinary('php') ?? 'php', path.join(sources, 'client.php')];
    },
  },
  {
    name: 'node',
    label: 'Node',
    available: () => ({ ok: true, version: process.versions.node }),
    async prepare(sources) {
      return [process.execPath, path.join(sources, 'client.mjs')];
    },
  },
  {
    name: 'perl',
    label: 'Perl',
    available() {
      const perl = findBinary('perl');
      if (!perl) return missing('perl', ['perl']);
      const ssl = spawnSync(perl, ['-MIO::Socket::SSL', '-MHTTP::Tiny', '-e', '1']);
      if (ssl.status !== 0) return missing('IO::Socket::SSL', ['libio-socket-ssl-perl']);
      return { ok: true, version: versionFrom(perl, ['-e', 'printf "%vd", $^V'], /(\S+)/) };
    },
    async prepare(sources) {
      return [findBinary('perl') ?? 'perl', path.join(sources, 'client.pl')];
    },
  },
];
