import type { TargetPlugin } from '@bench/core';
import { APACHE_PROCESS_NAMES, apacheBinary, apacheModule, apacheVersion } from '../support/apache-config.js';
import { apacheProtocols, startApacheStack } from '../support/apache-stack.js';
import { servesMany } from '../support/serves-many.js';
import { perlAvailability, perlScriptEnvironment, perlVersion } from './perl-common.js';
import { perlModuleVersion, templateSupports } from './perl-template.js';

/** Apache prefork + mod_perl2 + Embperl: Perl embedded in HTML pages, article 000's Embperl rows. */
export const perlEmbperlTarget: TargetPlugin = {
  name: 'perl-embperl',
  language: 'perl',
  description: 'Apache prefork + mod_perl2 + Embperl (Perl embedded in pages)',
  processNames: APACHE_PROCESS_NAMES,
  ...apacheProtocols,
  supports: (scenario) => templateSupports(scenario, 'index.epl', 'Embperl'),
  async available() {
    return perlAvailability(
      [
        { binary: 'apache2', path: apacheBinary(), aptPackage: 'apache2' },
        { binary: 'mod_perl', path: apacheModule('mod_perl.so'), aptPackage: 'libapache2-mod-perl2' },
      ],
      [['Embperl', 'libembperl-perl']],
      () => ({ apache: apacheVersion(), perl: perlVersion(), embperl: perlModuleVersion('Embperl') }),
    );
  },
  ...servesMany((scenarios, options) =>
    startApacheStack({
      target: 'perl-embperl',
      scenarios,
      options,
      handler: 'index.epl',
      modules: { perl_module: apacheModule('mod_perl.so') ?? '' },
      directives: (dir, { documentRoot: docroot }) => [
        'PerlModule Embperl',
        `PerlSetEnv EMBPERL_LOG "${dir}/embperl.log"`,
        `<Directory "${docroot}">`,
        '  <Files "*.epl">',
        '    SetHandler perl-script',
        '    PerlResponseHandler Embperl',
        '    Options +ExecCGI',
        '  </Files>',
        '</Directory>',
        'DirectoryIndex index.epl',
      ],
      environment: perlScriptEnvironment(options.services, 'process'),
      settings: { perl: perlVersion(), handler: 'Embperl', embperl: perlModuleVersion('Embperl'), persistentConnections: false },
    }),
  ),
};
