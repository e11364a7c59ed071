import type { TargetPlugin } from '@bench/core';
import { APACHE_PROCESS_NAMES, apacheBinary, apacheModule, apacheVersion } from '../support/apache-config.js';
import { apacheProtocols, startApacheStack } from '../support/apache-stack.js';
import { servesMany } from '../support/serves-many.js';
import { availabilityOf } from '../support/probe.js';
import { phpPersistent, phpScriptEnvironment, phpSupports, writePhpIni } from './php-common.js';

const phpModule = () => apacheModule(/^libphp.*\.so$/);

/** Apache prefork + mod_php (articles 000 and 003). */
export const phpModTarget: TargetPlugin = {
  name: 'php-mod',
  language: 'php',
  description: 'Apache prefork + mod_php',
  processNames: APACHE_PROCESS_NAMES,
  ...apacheProtocols,
  supports: phpSupports('apcu'),
  async available() {
    return availabilityOf(
      [
        { binary: 'apache2', path: apacheBinary(), aptPackage: 'apache2' },
        { binary: 'libphp (mod_php)', path: phpModule(), aptPackage: 'libapache2-mod-php' },
      ],
      () => ({ apache: apacheVersion(), php: /libphp(\d+\.\d+)/.exec(phpModule() ?? '')?.[1] ?? 'unknown' }),
    );
  },
  ...servesMany((scenarios, options) =>
    startApacheStack({
      target: 'php-mod',
      scenarios,
      options,
      handler: 'index.php',
      modules: { php_module: phpModule() ?? '' },
      directives: (dir) => {
        writePhpIni(dir);
        return [
          `PHPIniDir "${dir}"`,
          'DirectoryIndex index.php',
          '<FilesMatch "\\.php$">',
          '  SetHandler application/x-httpd-php',
          '</FilesMatch>',
        ];
      },
      environment: phpScriptEnvironment(options.services, 'apcu'),
      settings: { opcache: true, persistentConnections: phpPersistent(), outputCache: false },
    }),
  ),
};
