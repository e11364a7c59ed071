import path from 'node:path';
import type { TargetPlugin } from '@bench/core';
import { APACHE_PROCESS_NAMES, apacheBinary, apacheModule, apacheVersion } from '../support/apache-config.js';
import { apacheProtocols, startApacheStack } from '../support/apache-stack.js';
import { servesMany } from '../support/serves-many.js';
import { findBinary } from '@bench/core';
import { availabilityOf } from '../support/probe.js';
import { phpPersistent, phpScriptEnvironment, phpSupports, phpVersion, writePhpIni } from './php-common.js';

const phpCgiBinary = () => findBinary('php-cgi');

/** Apache mod_cgi running php-cgi for every request (article 003's CGI mode). */
export const phpCgiTarget: TargetPlugin = {
  name: 'php-cgi',
  language: 'php',
  description: 'Apache + mod_cgi starting php-cgi for every request',
  processNames: [...APACHE_PROCESS_NAMES, 'php-cgi'],
  ...apacheProtocols,
  supports: phpSupports('memcached'),
  async available() {
    return availabilityOf(
      [
        { binary: 'apache2', path: apacheBinary(), aptPackage: 'apache2' },
        { binary: 'php-cgi', path: phpCgiBinary(), aptPackage: 'php-cgi' },
        { binary: 'mod_cgi', path: apacheModule('mod_cgi.so'), aptPackage: 'apache2' },
      ],
      () => ({ apache: apacheVersion(), php: phpVersion(phpCgiBinary() ?? 'php-cgi') }),
    );
  },
  ...servesMany((scenarios, options) => {
    const phpCgi = phpCgiBinary() ?? 'php-cgi';
    return startApacheStack({
      target: 'php-cgi',
      scenarios,
      options,
      handler: 'index.php',
      modules: {
        cgi_module: apacheModule('mod_cgi.so') ?? '',
        actions_module: apacheModule('mod_actions.so') ?? '',
        alias_module: apacheModule('mod_alias.so') ?? '',
      },
      directives: (dir) => {
        writePhpIni(dir);
        return [
          // Action makes an internal redirect, which sets REDIRECT_STATUS: php-cgi's force_redirect check passes
          `ScriptAlias /bench-cgi-bin/php-cgi "${phpCgi}"`,
          `<Directory "${path.dirname(phpCgi)}">`,
          '  Require all granted',
          '</Directory>',
          'Action application/x-httpd-php-cgi /bench-cgi-bin/php-cgi',
          'DirectoryIndex index.php',
          '<FilesMatch "\\.php$">',
          '  SetHandler application/x-httpd-php-cgi',
          '</FilesMatch>',
          `SetEnv PHPRC "${dir}"`,
        ];
      },
      environment: phpScriptEnvironment(options.services, 'memcached'),
      settings: { php: phpVersion(phpCgi), processPerRequest: true, persistentConnections: phpPersistent(), outputCache: false },
    });
  }),
};
