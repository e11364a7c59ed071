import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { choosePort, type TargetPlugin } from '@bench/core';
import { findBinary } from '../support/find-binary.js';
import { FASTCGI_PARAMS, nginxArgs, nginxConfig } from '../support/nginx-config.js';
import { serviceEnvironment } from '../support/service-env.js';
import { makeStackDir, startStack, type StackProcessSpec } from '../support/stack.js';
import { cores, documentRoot, versionFrom } from '../php/php-common.js';
import { perlAvailability, perlSupports, perlVersion } from './perl-common.js';

// packages/targets/dist/perl/perl-fcgi.js -> packages/targets/perl/fcgi-server.pl
const fcgiServer = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'perl', 'fcgi-server.pl');
const nginxVersion = () => versionFrom(findBinary('nginx') ?? 'nginx', ['-v'], /nginx\/(\S+)/);

/**
 * nginx + a persistent Perl FastCGI pool (FCGI + FCGI::ProcManager): the CGI-style script runs
 * unchanged, compiled once per worker. A PSGI server would need the script rewritten as an app.
 */
export const perlFcgiTarget: TargetPlugin = {
  name: 'perl-fcgi',
  language: 'perl',
  description: 'nginx + Perl FastCGI workers (FCGI::ProcManager)',
  supports: perlSupports,
  async available() {
    return perlAvailability(
      [{ binary: 'nginx', path: findBinary('nginx'), aptPackage: 'nginx' }],
      [
        ['FCGI', 'libfcgi-perl'],
        ['FCGI::ProcManager', 'libfcgi-procmanager-perl'],
      ],
      () => ({ nginx: nginxVersion(), perl: perlVersion() }),
    );
  },
  async start(scenario, options) {
    const port = await choosePort(options.port);
    const dir = makeStackDir('perl-fcgi');
    const workers = options.workers ?? cores();
    const socket = path.join(dir, 'perl-fcgi.sock');
    const nginxConf = path.join(dir, 'nginx.conf');
    writeFileSync(
      nginxConf,
      nginxConfig({
        dir,
        port,
        root: documentRoot(scenario),
        workers: cores(),
        server: ['index index.pl;', 'location ~ \\.pl$ {', `  fastcgi_pass unix:${socket};`, ...FASTCGI_PARAMS.map((p) => `  ${p}`), '}'],
      }),
    );
    const processes: StackProcessSpec[] = [];
    if (scenario.kind === 'dynamic') {
      processes.push({
        name: 'perl-fcgi',
        command: findBinary('perl') ?? 'perl',
        args: [fcgiServer, socket, String(workers), path.join(scenario.dir, 'index.pl')],
        env: { ...process.env, ...serviceEnvironment(options.services) },
      });
    }
    processes.push({ name: 'nginx', command: findBinary('nginx') ?? 'nginx', args: nginxArgs(dir, nginxConf) });
    return startStack({
      target: 'perl-fcgi',
      scenario,
      port,
      dir,
      processes,
      settings: { nginx: nginxVersion(), perl: perlVersion(), fcgiWorkers: workers, processManager: 'FCGI::ProcManager', persistentConnections: false },
    });
  },
};
