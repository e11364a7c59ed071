import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { choosePort, listenHost, type Protocol, type RunningTarget, type Scenario, type TargetStartOptions } from '@bench/core';
import {
  apacheBinary,
  apacheChildren,
  apacheConfig,
  apacheModule,
  apacheVersion,
  APACHE_MAX_REQUEST_WORKERS,
  baseApacheModules,
} from './apache-config.js';
import { handDirTo, workerAccount } from './run-as.js';
import { handlerFile, layoutSite, type Site } from './site.js';
import { makeStackDir, startStack } from './stack.js';

export interface ApacheStackOptions {
  readonly target: string;
  readonly scenarios: readonly Scenario[];
  readonly options: TargetStartOptions;
  /** The file a scenario's folder answers with (index.php, index.pl, ...): its directory index, and where its own path maps. */
  readonly handler: string;
  /** Modules beyond the base set: name -> .so path. */
  readonly modules: Readonly<Record<string, string>>;
  /** Directives for this stack, given the private dir and the site (its document root, every scenario's folder). */
  readonly directives: (dir: string, site: Site) => readonly string[];
  /** Environment for the scripts (SetEnv). */
  readonly environment: Readonly<Record<string, string>>;
  readonly settings: Readonly<Record<string, string | number | boolean>>;
}

/** What every Apache stack of bench's serves: HTTP/1.1, in cleartext or over TLS (mod_ssl), and why no HTTP/2. */
export const apacheProtocols: { readonly protocols: readonly Protocol[]; readonly protocolsNote: string } = {
  protocols: ['http1', 'https'],
  protocolsNote: "mod_http2 turns itself off under the prefork MPM, which bench's Apache runs (as the articles did; mod_php needs it)",
};

// Apache serves HTTP/1.1 only (apacheProtocols): its only TLS protocol is https
const servesTls = (options: TargetStartOptions) => options.protocol === 'https' && options.tls !== undefined;

/** Over TLS, mod_ssl, with a session cache as Debian's default has. */
function protocolModules(options: TargetStartOptions): Record<string, string> {
  if (!servesTls(options)) return {};
  return { ssl_module: apacheModule('mod_ssl.so') ?? '', socache_shmcb_module: apacheModule('mod_socache_shmcb.so') ?? '' };
}

/** mod_ssl with the run's certificate on the one listener. */
function protocolDirectives(options: TargetStartOptions, dir: string): string[] {
  if (!servesTls(options) || !options.tls) return [];
  return [
    'SSLEngine on',
    `SSLCertificateFile "${options.tls.certFile}"`,
    `SSLCertificateKeyFile "${options.tls.keyFile}"`,
    `SSLSessionCache "shmcb:${path.join(dir, 'ssl-sessions')}(512000)"`,
  ];
}

/** Environment for scripts, through mod_env. */
function setEnvDirectives(env: Readonly<Record<string, string>>): string[] {
  return Object.entries(env).map(([k, v]) => `SetEnv ${k} "${v.replace(/"/g, '\\"')}"`);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** How Apache reaches each scenario of a site beyond its document root: a mount is an alias of its folder, a route of its handler file. */
export function apacheRoutes(site: Site, handler: string): string[] {
  return site.scenarios.flatMap((served) => [
    ...(served.mount !== undefined ? [`Alias "${served.mount}/" "${served.root}/"`] : []),
    ...(served.route !== undefined ? [`AliasMatch "^${escapeRegExp(served.route)}$" "${handlerFile(served, handler)}"`] : []),
  ]);
}

/** One Apache prefork in the foreground with a generated httpd.conf: the base of php-mod, php-cgi, perl-mod, perl-cgi. */
export async function startApacheStack(o: ApacheStackOptions): Promise<RunningTarget> {
  const host = listenHost(o.options);
  const port = await choosePort(o.options.port, host);
  const dir = makeStackDir(o.target);
  const account = workerAccount();
  const site = layoutSite(o.scenarios, dir);
  const docroot = site.documentRoot;
  const conf = path.join(dir, 'httpd.conf');
  const children = apacheChildren(o.options.maxConcurrency);
  writeFileSync(
    conf,
    apacheConfig({
      dir,
      host,
      port,
      docroot,
      modules: { ...baseApacheModules(), ...protocolModules(o.options), ...o.modules },
      ...(account ? { account } : {}),
      directives: [
        ...protocolDirectives(o.options, dir),
        ...apacheRoutes(site, o.handler),
        ...o.directives(dir, site),
        ...setEnvDirectives(o.environment),
      ],
      children,
    }),
  );
  handDirTo(dir, account);
  return startStack({
    target: o.target,
    scenarios: o.scenarios,
    host,
    port,
    dir,
    processes: [{ name: 'apache2', command: apacheBinary() ?? 'apache2', args: ['-f', conf, '-DFOREGROUND'] }],
    ...(o.options.protocol ? { protocol: o.options.protocol } : {}),
    ...(o.options.tls ? { tls: o.options.tls } : {}),
    settings: {
      apache: apacheVersion(),
      mpm: 'prefork',
      maxRequestWorkers: APACHE_MAX_REQUEST_WORKERS,
      startServers: children,
      ...o.settings,
      ...(o.options.protocol && o.options.protocol !== 'http1' ? { protocol: o.options.protocol } : {}),
    },
  });
}
