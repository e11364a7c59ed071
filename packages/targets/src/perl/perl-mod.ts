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

/** Apache prefork + mod_perl2, the CGI-style script run by ModPerl::Registry (article 000). */
export const perlModTarget: TargetPlugin = {
  name: 'perl-mod',
  language: 'perl',
  description: 'Apache prefork + mod_perl2 (ModPerl::Registry)',
  supports: perlSupports,
  async available() {
    return perlAvailability(
      [
        { binary: 'apache2', path: apacheBinary(), aptPackage: 'apache2' },
        { binary: 'mod_perl', path: apacheModule('mod_perl.so'), aptPackage: 'libapache2-mod-perl2' },
      ],
      [],
      () => ({ apache: apacheVersion(), perl: perlVersion() }),
    );
  },
  async start(scenario, options) {
    const port = await choosePort(options.port);
    const dir = makeStackDir('perl-mod');
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
        modules: { ...baseApacheModules(), perl_module: apacheModule('mod_perl.so') ?? '' },
        ...(account ? { account } : {}),
        directives: [
          `<Directory "${docroot}">`,
          '  Options +ExecCGI',
          '  <FilesMatch "\\.pl$">',
          '    SetHandler perl-script',
          '    PerlResponseHandler ModPerl::Registry',
          '    PerlOptions +ParseHeaders',
          '  </FilesMatch>',
          '</Directory>',
          'DirectoryIndex index.pl',
          ...setEnvDirectives(serviceEnvironment(options.services)),
        ],
      }),
    );
    return startStack({
      target: 'perl-mod',
      scenario,
      port,
      dir,
      processes: [{ name: 'apache2', command: apacheBinary() ?? 'apache2', args: ['-f', conf, '-DFOREGROUND'] }],
      settings: { apache: apacheVersion(), perl: perlVersion(), mpm: 'prefork', maxRequestWorkers: 256, handler: 'ModPerl::Registry', persistentConnections: false },
    });
  },
};
