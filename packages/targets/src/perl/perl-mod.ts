import type { TargetPlugin } from '@bench/core';
import { APACHE_PROCESS_NAMES, apacheBinary, apacheModule, apacheVersion } from '../support/apache-config.js';
import { apacheProtocols, startApacheStack } from '../support/apache-stack.js';
import { servesMany } from '../support/serves-many.js';
import { perlAvailability, perlScriptEnvironment, perlSupports, perlVersion } from './perl-common.js';

/** Apache prefork + mod_perl2, the CGI-style script run by ModPerl::Registry (article 000). */
export const perlModTarget: TargetPlugin = {
  name: 'perl-mod',
  language: 'perl',
  description: 'Apache prefork + mod_perl2 (ModPerl::Registry)',
  processNames: APACHE_PROCESS_NAMES,
  ...apacheProtocols,
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
  ...servesMany((scenarios, options) =>
    startApacheStack({
      target: 'perl-mod',
      scenarios,
      options,
      handler: 'index.pl',
      modules: { perl_module: apacheModule('mod_perl.so') ?? '' },
      directives: (_dir, { documentRoot: docroot }) => [
        `<Directory "${docroot}">`,
        '  Options +ExecCGI',
        '  <FilesMatch "\\.pl$">',
        '    SetHandler perl-script',
        '    PerlResponseHandler ModPerl::Registry',
        '    PerlOptions +ParseHeaders',
        '  </FilesMatch>',
        '</Directory>',
        'DirectoryIndex index.pl',
      ],
      environment: perlScriptEnvironment(options.services, 'process'),
      settings: { perl: perlVersion(), handler: 'ModPerl::Registry', persistentConnections: false },
    }),
  ),
};
