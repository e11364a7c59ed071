import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { choosePort, type TargetPlugin } from '@bench/core';
import { apacheBinary, apacheConfig, apacheModule, baseApacheModules } from '../support/apache-config.js';
import { handDirTo, workerAccount } from '../support/run-as.js';
import { serviceEnvironment } from '../support/service-env.js';
import { makeStackDir, startStack } from '../support/stack.js';
import { documentRoot } from '../php/php-common.js';
import { apacheVersion, setEnvDirectives } from '../php/php-mod.js';
import { perlAvailability, perlSupports, perlVersion } from './perl-common.js';

/** Apache mod_cgi starting perl for every request (article 000's "CGI perl/Apache"). */
export const perlCgiTarget: TargetPlugin = {
  name: 'perl-cgi',
  language: 'perl',
  description: 'Apache + mod_cgi starting the Perl script for every request',
  supports: perlSupports,
  async available() {
    return perlAvailability(
      [
        { binary: 'apache2', path: apacheBinary(), aptPackage: 'apache2' },
        { binary: 'mod_cgi', path: apacheModule('mod_cgi.so'), aptPackage: 'apache2' },
      ],
      [],
      () => ({ apache: apacheVersion(), perl: perlVersion() }),
    );
  },
  async start(scenario, options) {
    const port = await choosePort(options.port);
    const dir = makeStackDir('perl-cgi');
    const account = workerAccount();
    handDirTo(dir, account);
    const docroot = documentRoot(scenario);
    const conf = path.join(dir, 'httpd.conf');
    writeFileSync(
      conf,
      apacheConfig({
        dir,
        port,
        docroot,
        modules: { ...baseApacheModules(), cgi_module: apacheModule('mod_cgi.so') ?? '' },
        ...(account ? { account } : {}),
        directives: [
          `<Directory "${docroot}">`,
          '  Options +ExecCGI',
          '  AddHandler cgi-script .pl',
          '</Directory>',
          'DirectoryIndex index.pl',
          ...setEnvDirectives(serviceEnvironment(options.services)),
        ],
      }),
    );
    return startStack({
      target: 'perl-cgi',
      scenario,
      port,
      dir,
      processes: [{ name: 'apache2', command: apacheBinary() ?? 'apache2', args: ['-f', conf, '-DFOREGROUND'] }],
      settings: { apache: apacheVersion(), perl: perlVersion(), mpm: 'prefork', processPerRequest: true, persistentConnections: false },
    });
  },
};
