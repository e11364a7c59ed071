import type { TargetPlugin } from '@bench/core';
import { APACHE_PROCESS_NAMES, apacheBinary, apacheModule, apacheVersion } from '../support/apache-config.js';
import { apacheProtocols, startApacheStack } from '../support/apache-stack.js';
import { servesMany } from '../support/serves-many.js';
import { handlerSupport } from '../support/folder.js';
import { mediaTypeOf } from '../support/mime-type.js';
import { availabilityOf } from '../support/probe.js';

/**
 * Apache with mod_include: server-side includes, article 000's "SSI Include" rows. SSI pastes
 * files together and prints text; it has no loops, no database and no backend clients.
 */
export const apacheSsiTarget: TargetPlugin = {
  name: 'apache-ssi',
  language: 'ssi',
  description: 'Apache prefork + mod_include (server-side includes)',
  processNames: APACHE_PROCESS_NAMES,
  ...apacheProtocols,
  supports: (scenario) =>
    handlerSupport(
      scenario,
      'index.shtml',
      'SSI only pastes files and text together (no loops, no database, no backend clients): it serves hello, include, big and the static files',
    ),
  async available() {
    return availabilityOf(
      [
        { binary: 'apache2', path: apacheBinary(), aptPackage: 'apache2' },
        { binary: 'mod_include', path: apacheModule('mod_include.so'), aptPackage: 'apache2' },
      ],
      () => ({ apache: apacheVersion() }),
    );
  },
  ...servesMany((scenarios, options) =>
    startApacheStack({
      target: 'apache-ssi',
      scenarios,
      options,
      handler: 'index.shtml',
      modules: { include_module: apacheModule('mod_include.so') ?? '' },
      directives: (_dir, site) => [
        `<Directory "${site.documentRoot}">`,
        // includes without <!--#exec-->: the pages only paste files, and nothing may run a command
        '  Options +IncludesNOEXEC',
        '</Directory>',
        // each template's type is its scenario's (hello and big are text/plain), its charset UTF-8
        ...site.scenarios.flatMap(({ scenario, root }) => [
          `<Directory "${root}">`,
          `  AddType ${mediaTypeOf(scenario)} .shtml`,
          '</Directory>',
        ]),
        'AddCharset utf-8 .shtml',
        'AddOutputFilter INCLUDES .shtml',
        'DirectoryIndex index.shtml',
      ],
      environment: {},
      settings: { ssi: 'mod_include' },
    }),
  ),
};
