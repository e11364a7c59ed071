import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { choosePort, listenHost, type RunningTarget, type Scenario, type TargetStartOptions } from '@bench/core';
import { findBinary } from '@bench/core';
import { nginxArgs, nginxConfig, nginxVersion } from './nginx-config.js';
import { cores } from './probe.js';
import { handlerFile, layoutSite, type Site } from './site.js';
import { makeStackDir, startStack, type StackProcessSpec } from './stack.js';

/** Scripts a FastCGI backend runs behind nginx (php-fpm, perl-fcgi): how nginx hands each one over. */
export interface NginxFastcgi {
  /** The handler file of a scenario's folder (index.php): its directory index, and where its own path maps. */
  readonly handler: string;
  /** The lines that hand one script to the backend, given the private dir and its SCRIPT_FILENAME (a path or a variable). */
  readonly pass: (dir: string, scriptFilename: string) => readonly string[];
  /** More lines for one scenario's script (php-fpm's output cache for cache). */
  readonly extra?: (scenario: Scenario) => readonly string[];
}

export interface NginxStackOptions {
  readonly target: string;
  readonly scenarios: readonly Scenario[];
  readonly options: TargetStartOptions;
  /** Scripts behind a FastCGI backend: the site is laid out in the private dir and each scenario reached in it. */
  readonly fastcgi?: NginxFastcgi;
  /** Without fastcgi: the document root. */
  readonly root?: string;
  /** http { } directives, given the private dir. */
  readonly http?: (dir: string) => readonly string[];
  /** More server { } directives, given the private dir. */
  readonly server?: (dir: string) => readonly string[];
  /** Processes started before nginx (an FPM or FastCGI pool), given the private dir and the site. */
  readonly backends?: (dir: string, site: Site | undefined) => readonly StackProcessSpec[];
  readonly settings: Readonly<Record<string, string | number | boolean>>;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * How nginx reaches every scenario of a site: its handler as the directory index and every file of that kind handed
 * to the backend; a mount is its folder under the prefix, a route its one handler file.
 */
export function nginxRoutes(site: Site, fastcgi: NginxFastcgi, dir: string): string[] {
  const scripts = `~ ${escapeRegExp(path.extname(fastcgi.handler))}$`;
  const pass = (scriptFilename: string, extra: readonly string[]) => [...fastcgi.pass(dir, scriptFilename), ...extra].map((l) => `  ${l}`);
  const lines = [`index ${fastcgi.handler};`, `location ${scripts} {`, ...pass('$document_root$fastcgi_script_name', []), '}'];
  for (const served of site.scenarios) {
    const extra = fastcgi.extra?.(served.scenario) ?? [];
    if (served.mount !== undefined) {
      const inner = pass('$request_filename', extra).map((l) => `  ${l}`);
      lines.push(
        `location ^~ ${served.mount}/ {`,
        `  alias ${served.root}/;`,
        `  index ${fastcgi.handler};`,
        `  location ${scripts} {`,
        ...inner,
        '  }',
        '}',
      );
    } else if (served.route !== undefined) {
      lines.push(`location = ${served.route} {`, ...pass(handlerFile(served, fastcgi.handler), extra), '}');
    } else if (extra.length > 0) {
      lines.push(`location = /${fastcgi.handler} {`, ...pass('$document_root$fastcgi_script_name', extra), '}');
    }
  }
  return lines;
}

/** nginx in the foreground with a generated config, after its FastCGI backends: php-fpm, perl-fcgi, nginx-static. */
export async function startNginxStack(o: NginxStackOptions): Promise<RunningTarget> {
  const host = listenHost(o.options);
  const port = await choosePort(o.options.port, host);
  const dir = makeStackDir(o.target);
  const conf = path.join(dir, 'nginx.conf');
  const { protocol, tls } = o.options;
  const site = o.fastcgi ? layoutSite(o.scenarios, dir) : undefined;
  writeFileSync(
    conf,
    nginxConfig({
      dir,
      host,
      port,
      root: site?.documentRoot ?? o.root ?? dir,
      workers: cores(),
      http: o.http?.(dir) ?? [],
      server: [...(site && o.fastcgi ? nginxRoutes(site, o.fastcgi, dir) : []), ...(o.server?.(dir) ?? [])],
      ...(protocol ? { protocol } : {}),
      ...(tls ? { tls } : {}),
    }),
  );
  return startStack({
    target: o.target,
    scenarios: o.scenarios,
    host,
    port,
    dir,
    processes: [...(o.backends?.(dir, site) ?? []), { name: 'nginx', command: findBinary('nginx') ?? 'nginx', args: nginxArgs(dir, conf) }],
    settings: { nginx: nginxVersion(), nginxWorkers: cores(), ...o.settings, ...(protocol && protocol !== 'http1' ? { protocol } : {}) },
    ...(protocol ? { protocol } : {}),
    ...(tls ? { tls } : {}),
  });
}
