import type { TargetPlugin } from '@bench/core';
import { APACHE_PROCESS_NAMES, apacheBinary, apacheModule, apacheVersion } from '../support/apache-config.js';
import { apacheProtocols, startApacheStack } from '../support/apache-stack.js';
import { servesMany } from '../support/serves-many.js';
import { perlAvailability, perlScriptEnvironment, perlSupports, perlVersion } from './perl-common.js';

/** Apache mod_cgi starting perl for every request (article 000's "CGI perl/Apache"). */
export const perlCgiTarget: TargetPlugin = {
  name: 'perl-cgi',
  language: 'perl',
  description: 'Apache + mod_cgi starting the Perl script for every request',
  processNames: [...APACHE_PROCESS_NAMES, 'index.pl'],
  ...apacheProtocols,
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
  ...servesMany((scenarios, options) =>
    startApacheStack({
      target: 'perl-cgi',
      scenarios,
      options,
      handler: 'index.pl',
      modules: { cgi_module: apacheModule('mod_cgi.so') ?? '' },
      directives: (_dir, { documentRoot: docroot }) => [
        `<Directory "${docroot}">`,
        '  Options +ExecCGI',
        '  AddHandler cgi-script .pl',
        '</Directory>',
        'DirectoryIndex index.pl',
      ],
      environment: perlScriptEnvironment(options.services, 'memcached'),
      settings: { perl: perlVersion(), processPerRequest: true, persistentConnections: false },
    }),
  ),
};
