import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { choosePort, listenHost, type RunningTarget, type Scenario, type TargetStartOptions } from '@bench/core';
import {
  apacheBinary,
  apacheChildren,
  apacheConfig,
  apacheVersion,
  APACHE_MAX_REQUEST_WORKERS,
  baseApacheModules,
} from './apache-config.js';
import { documentRoot } from './probe.js';
import { handDirTo, workerAccount } from './run-as.js';
import { makeStackDir, startStack } from './stack.js';
import { stageSite } from './stage-site.js';

export interface ApacheStackOptions {
  readonly target: string;
  readonly scenario: Scenario;
  readonly options: TargetStartOptions;
  /** Modules beyond the base set: name -> .so path. */
  readonly modules: Readonly<Record<string, string>>;
  /** Directives for this stack, given the private dir and the document root. */
  readonly directives: (dir: string, docroot: string) => readonly string[];
  /** Environment for the scripts (SetEnv). */
  readonly environment: Readonly<Record<string, string>>;
  readonly settings: Readonly<Record<string, string | number | boolean>>;
}

/** Environment for scripts, through mod_env. */
function setEnvDirectives(env: Readonly<Record<string, string>>): string[] {
  return Object.entries(env).map(([k, v]) => `SetEnv ${k} "${v.replace(/"/g, '\\"')}"`);
}

/** One Apache prefork in the foreground with a generated httpd.conf: the base of php-mod, php-cgi, perl-mod, perl-cgi. */
export async function startApacheStack(o: ApacheStackOptions): Promise<RunningTarget> {
  const host = listenHost(o.options);
  const port = await choosePort(o.options.port, host);
  const dir = makeStackDir(o.target);
  const account = workerAccount();
  const scenario = stageSite(o.scenario, dir);
  const docroot = documentRoot(scenario);
  const conf = path.join(dir, 'httpd.conf');
  const children = apacheChildren(o.options.maxConcurrency);
  writeFileSync(
    conf,
    apacheConfig({
      dir,
      host,
      port,
      docroot,
      modules: { ...baseApacheModules(), ...o.modules },
      ...(account ? { account } : {}),
      directives: [...o.directives(dir, docroot), ...setEnvDirectives(o.environment)],
      children,
    }),
  );
  handDirTo(dir, account);
  return startStack({
    target: o.target,
    scenario: o.scenario,
    host,
    port,
    dir,
    processes: [{ name: 'apache2', command: apacheBinary() ?? 'apache2', args: ['-f', conf, '-DFOREGROUND'] }],
    settings: {
      apache: apacheVersion(),
      mpm: 'prefork',
      maxRequestWorkers: APACHE_MAX_REQUEST_WORKERS,
      startServers: children,
      ...o.settings,
    },
  });
}
