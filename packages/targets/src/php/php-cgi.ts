import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { choosePort, type TargetPlugin } from '@bench/core';
import { apacheBinary, apacheConfig, apacheModule, baseApacheModules } from '../support/apache-config.js';
import { findBinary } from '../support/find-binary.js';
import { handDirTo, workerAccount } from '../support/run-as.js';
import { makeStackDir, startStack } from '../support/stack.js';
import { availabilityOf, documentRoot, phpSupports, phpVersion, writePhpIni, phpPersistent, phpScriptEnvironment } from './php-common.js';
import { apacheVersion, setEnvDirectives } from './php-mod.js';

const phpCgiBinary = () => findBinary('php-cgi');

/** Apache mod_cgi running php-cgi for every request (article 003's CGI mode). */
export const phpCgiTarget: TargetPlugin = {
  name: 'php-cgi',
  language: 'php',
  description: 'Apache + mod_cgi starting php-cgi for every request',
  supports: phpSupports,
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
  async start(scenario, options) {
    const port = await choosePort(options.port);
    const dir = makeStackDir('php-cgi');
    const account = workerAccount();
    handDirTo(dir, account);
    writePhpIni(dir);
    const phpCgi = phpCgiBinary() ?? 'php-cgi';
    const conf = path.join(dir, 'httpd.conf');
    writeFileSync(
      conf,
      apacheConfig({
        dir,
        port,
        docroot: documentRoot(scenario),
        modules: {
          ...baseApacheModules(),
          cgi_module: apacheModule('mod_cgi.so') ?? '',
          actions_module: apacheModule('mod_actions.so') ?? '',
          alias_module: apacheModule('mod_alias.so') ?? '',
        },
        ...(account ? { account } : {}),
        directives: [
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
          ...setEnvDirectives(phpScriptEnvironment(options.services)),
        ],
      }),
    );
    return startStack({
      target: 'php-cgi',
      scenario,
      port,
      dir,
      processes: [{ name: 'apache2', command: apacheBinary() ?? 'apache2', args: ['-f', conf, '-DFOREGROUND'] }],
      settings: { apache: apacheVersion(), php: phpVersion(phpCgi), mpm: 'prefork', processPerRequest: true, persistentConnections: phpPersistent(), outputCache: false },
    });
  },
};
