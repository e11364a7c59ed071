import path from 'node:path';
import type { TargetPlugin } from '@bench/core';
import { APACHE_PROCESS_NAMES, apacheBinary, apacheModule, apacheVersion } from '../support/apache-config.js';
import { apacheProtocols, startApacheStack } from '../support/apache-stack.js';
import { servesMany } from '../support/serves-many.js';
import { findBinary } from '@bench/core';
import { availabilityOf, cores } from '../support/probe.js';
import { phpPersistent, phpScriptEnvironment, phpSupports, phpVersion, writePhpIni } from './php-common.js';

const phpCgiBinary = () => findBinary('php-cgi');
const fcgidModule = () => apacheModule('mod_fcgid.so');

/**
 * Apache + mod_fcgid running php-cgi as persistent FastCGI processes: article 003's FastCGI row.
 * mod_fcgid spawns and recycles the php-cgi processes itself; php-cgi keeps no children of its own.
 */
export const phpFcgidTarget: TargetPlugin = {
  name: 'php-fcgid',
  language: 'php',
  description: 'Apache + mod_fcgid running php-cgi as FastCGI processes',
  processNames: [...APACHE_PROCESS_NAMES, 'php-cgi'],
  ...apacheProtocols,
  supports: phpSupports('apcu'),
  async available() {
    return availabilityOf(
      [
        { binary: 'apache2', path: apacheBinary(), aptPackage: 'apache2' },
        { binary: 'php-cgi', path: phpCgiBinary(), aptPackage: 'php-cgi' },
        { binary: 'mod_fcgid', path: fcgidModule(), aptPackage: 'libapache2-mod-fcgid' },
      ],
      () => ({ apache: apacheVersion(), php: phpVersion(phpCgiBinary() ?? 'php-cgi') }),
    );
  },
  ...servesMany((scenarios, options) => {
    const phpCgi = phpCgiBinary() ?? 'php-cgi';
    const processes = options.workers ?? cores();
    return startApacheStack({
      target: 'php-fcgid',
      scenarios,
      options,
      handler: 'index.php',
      modules: { fcgid_module: fcgidModule() ?? '' },
      directives: (dir, { documentRoot: docroot }) => {
        writePhpIni(dir);
        return [
          `FcgidIPCDir "${path.join(dir, 'fcgid')}"`,
          `FcgidProcessTableFile "${path.join(dir, 'fcgid-shm')}"`,
          `FcgidMaxProcesses ${processes}`,
          `FcgidMaxProcessesPerClass ${processes}`,
          // processes live for the whole run: no recycling after N requests (php-cgi's own default is 500)
          'FcgidMaxRequestsPerProcess 0',
          'FcgidInitialEnv PHP_FCGI_MAX_REQUESTS 0',
          'FcgidInitialEnv PHP_FCGI_CHILDREN 0',
          `FcgidInitialEnv PHPRC "${dir}"`,
          'FcgidIOTimeout 60',
          `<Directory "${docroot}">`,
          '  Options +ExecCGI',
          '  <FilesMatch "\\.php$">',
          '    SetHandler fcgid-script',
          `    FcgidWrapper "${phpCgi}" .php`,
          '  </FilesMatch>',
          '</Directory>',
          'DirectoryIndex index.php',
        ];
      },
      environment: phpScriptEnvironment(options.services, 'apcu'),
      settings: { php: phpVersion(phpCgi), fcgidMaxProcesses: processes, persistentConnections: phpPersistent(), outputCache: false },
    });
  }),
};
