import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { choosePort, listenHost, type RunningTarget, type Scenario, type TargetStartOptions } from '@bench/core';
import { findBinary } from '@bench/core';
import { nginxArgs, nginxConfig, nginxVersion } from './nginx-config.js';
import { cores } from './probe.js';
import { makeStackDir, startStack, type StackProcessSpec } from './stack.js';

export interface NginxStackOptions {
  readonly target: string;
  readonly scenario: Scenario;
  readonly options: TargetStartOptions;
  readonly root: string;
  /** http { } directives, given the private dir. */
  readonly http?: (dir: string) => readonly string[];
  /** server { } directives, given the private dir. */
  readonly server: (dir: string) => readonly string[];
  /** Processes started before nginx (an FPM or FastCGI pool), given the private dir. */
  readonly backends?: (dir: string) => readonly StackProcessSpec[];
  readonly settings: Readonly<Record<string, string | number | boolean>>;
}

/** nginx in the foreground with a generated config, after its FastCGI backends: php-fpm, perl-fcgi, nginx-static. */
export async function startNginxStack(o: NginxStackOptions): Promise<RunningTarget> {
  const host = listenHost(o.options);
  const port = await choosePort(o.options.port, host);
  const dir = makeStackDir(o.target);
  const conf = path.join(dir, 'nginx.conf');
  const { protocol, tls } = o.options;
  writeFileSync(
    conf,
    nginxConfig({
      dir,
      host,
      port,
      root: o.root,
      workers: cores(),
      http: o.http?.(dir) ?? [],
      server: o.server(dir),
      ...(protocol ? { protocol } : {}),
      ...(tls ? { tls } : {}),
    }),
  );
  return startStack({
    target: o.target,
    scenario: o.scenario,
    host,
    port,
    dir,
    processes: [...(o.backends?.(dir) ?? []), { name: 'nginx', command: findBinary('nginx') ?? 'nginx', args: nginxArgs(dir, conf) }],
    settings: { nginx: nginxVersion(), nginxWorkers: cores(), ...o.settings, ...(protocol && protocol !== 'http1' ? { protocol } : {}) },
    ...(protocol ? { protocol } : {}),
    ...(tls ? { tls } : {}),
  });
}
