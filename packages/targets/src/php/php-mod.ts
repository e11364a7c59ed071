import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { choosePort, type TargetPlugin } from '@bench/core';
import { apacheBinary, apacheConfig, apacheModule, baseApacheModules } from '../support/apache-config.js';
import { handDirTo, workerAccount } from '../support/run-as.js';
import { makeStackDir, startStack } from '../support/stack.js';
import { availabilityOf, documentRoot, phpSupports, versionFrom, writePhpIni, phpPersistent, phpScriptEnvironment } from './php-common.js';

const phpModule = () => apacheModule(/^libphp.*\.so$/);

/** Environment for the scripts, through mod_env. */
export function setEnvDirectives(env: Record<string, string>): string[] {
  return Object.entries(env).map(([k, v]) => `SetEnv ${k} "${v.replace(/"/g, '\\"')}"`);
}

export const apacheVersion = () => versionFrom(apacheBinary() ?? 'apache2', ['-v'], /Apache\/(\S+)/);

/** Apache prefork + mod_php (articles 000 and 003). */
export const phpModTarget: TargetPlugin = {
  name: 'php-mod',
  language: 'php',
  description: 'Apache prefork + mod_php',
  supports: phpSupports,
  async available() {
    return availabilityOf(
      [
        { binary: 'apache2', path: apacheBinary(), aptPackage: 'apache2' },
        { binary: 'libphp (mod_php)', path: phpModule(), aptPackage: 'libapache2-mod-php' },
      ],
      () => ({ apache: apacheVersion(), php: /libphp(\d+\.\d+)/.exec(phpModule() ?? '')?.[1] ?? 'unknown' }),
    );
  },
  async start(scenario, options) {
    const port = await choosePort(options.port);
    const dir = makeStackDir('php-mod');
    const account = workerAccount();
    handDirTo(dir, account);
    writePhpIni(dir);
    const conf = path.join(dir, 'httpd.conf');
    writeFileSync(
      conf,
      apacheConfig({
        dir,
        port,
        docroot: documentRoot(scenario),
        modules: { ...baseApacheModules(), php_module: phpModule() ?? '' },
        ...(account ? { account } : {}),
        directives: [
          `PHPIniDir "${dir}"`,
          'DirectoryIndex index.php',
          '<FilesMatch "\\.php$">',
          '  SetHandler application/x-httpd-php',
          '</FilesMatch>',
          ...setEnvDirectives(phpScriptEnvironment(options.services)),
        ],
      }),
    );
    return startStack({
      target: 'php-mod',
      scenario,
      port,
      dir,
      processes: [{ name: 'apache2', command: apacheBinary() ?? 'apache2', args: ['-f', conf, '-DFOREGROUND'] }],
      settings: { apache: apacheVersion(), mpm: 'prefork', maxRequestWorkers: 256, opcache: true, persistentConnections: phpPersistent(), outputCache: false },
    });
  },
};
