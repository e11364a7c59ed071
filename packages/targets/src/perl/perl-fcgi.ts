import path from 'node:path';
import type { TargetPlugin } from '@bench/core';
import { findBinary, packageFile } from '@bench/core';
import { folderOf } from '../support/folder.js';
import { fastcgiPass, NGINX_PROCESS_NAMES, nginxVersion } from '../support/nginx-config.js';
import { startNginxStack } from '../support/nginx-stack.js';
import { cores } from '../support/probe.js';
import { servesMany } from '../support/serves-many.js';
import { perlAvailability, perlScriptEnvironment, perlSupports, perlVersion } from './perl-common.js';

const fcgiServer = packageFile(import.meta.url, 'perl', 'fcgi-server.pl');

/**
 * nginx + a persistent Perl FastCGI pool (FCGI + FCGI::ProcManager): the CGI-style script runs
 * unchanged, compiled once per worker. A PSGI server would need the script rewritten as an app.
 */
export const perlFcgiTarget: TargetPlugin = {
  name: 'perl-fcgi',
  language: 'perl',
  description: 'nginx + Perl FastCGI workers (FCGI::ProcManager)',
  processNames: [...NGINX_PROCESS_NAMES, 'perl-fcgi', 'fcgi-server.pl'],
  // through the nginx that fronts it: its ssl and http2 listen flags
  protocols: ['http1', 'https', 'h2', 'h2c'],
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
  ...servesMany((scenarios, options) => {
    const workers = options.workers ?? cores();
    const socket = (dir: string) => path.join(dir, 'perl-fcgi.sock');
    return startNginxStack({
      target: 'perl-fcgi',
      scenarios,
      options,
      fastcgi: { handler: 'index.pl', pass: (dir, script) => fastcgiPass(socket(dir), script) },
      // the scripts of the dynamic scenarios, each compiled once per worker; static scenarios are nginx's alone
      backends: (dir, site) => {
        const scripts = (site?.scenarios ?? [])
          .filter(({ scenario }) => folderOf(scenario).kind === 'dynamic')
          .map(({ scenario }) => path.join(folderOf(scenario).dir, 'index.pl'));
        if (scripts.length === 0) return [];
        return [
          {
            name: 'perl-fcgi',
            command: findBinary('perl') ?? 'perl',
            args: [fcgiServer, socket(dir), String(workers), ...scripts],
            env: { ...process.env, ...perlScriptEnvironment(options.services, 'process') },
          },
        ];
      },
      settings: { perl: perlVersion(), fcgiWorkers: workers, processManager: 'FCGI::ProcManager', persistentConnections: false },
    });
  }),
};
