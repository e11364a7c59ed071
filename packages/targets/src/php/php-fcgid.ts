import path from 'node:path';
import { errors, type TargetPlugin } from '@bench/core';
import { APACHE_PROCESS_NAMES, apacheBinary, apacheModule, apacheVersion } from '../support/apache-config.js';
import { apacheProtocols, startApacheStack } from '../support/apache-stack.js';
import { servesMany } from '../support/serves-many.js';
import { findBinary } from '@bench/core';
import { availabilityOf } from '../support/probe.js';
import { fcgidPoolDirectives, fcgidPoolSize, spawnPool, writePoolScript } from './fcgid-pool.js';
import { phpPersistent, phpScriptEnvironment, phpSupports, phpVersion, writePhpIni } from './php-common.js';

const phpCgiBinary = () => findBinary('php-cgi');
const fcgidModule = () => apacheModule('mod_fcgid.so');

/**
 * Apache + mod_fcgid running php-cgi as persistent FastCGI processes: article 003's FastCGI row.
 * mod_fcgid spawns the php-cgi processes itself (a pool of one per connection, spawned before load follows);
 * php-cgi keeps no children of its own.
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
  ...servesMany(async (scenarios, options) => {
    const phpCgi = phpCgiBinary() ?? 'php-cgi';
    const processes = fcgidPoolSize(options.workers, options.maxConcurrency);
    const running = await startApacheStack({
      target: 'php-fcgid',
      scenarios,
      options,
      handler: 'index.php',
      modules: { fcgid_module: fcgidModule() ?? '' },
      directives: (dir, { documentRoot: docroot }) => {
        writePhpIni(dir);
        writePoolScript(docroot);
        return [
          `FcgidIPCDir "${path.join(dir, 'fcgid')}"`,
          `FcgidProcessTableFile "${path.join(dir, 'fcgid-shm')}"`,
          ...fcgidPoolDirectives(processes),
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
    // bench verify checks one answer: the pool is spawned only where load follows
    if (!options.warmUp) return running;
    try {
      const transport = { protocol: options.protocol ?? 'http1', ...(options.tls ? { caFile: options.tls.caFile } : {}) };
      const pool = await spawnPool(running.url, running.processGroups, processes, transport);
      return { ...running, settings: { ...running.settings, fcgidPoolSpawnSeconds: pool.seconds } };
    } catch (error) {
      await running.stop();
      throw errors.targetStart(
        'php-fcgid',
        scenarios.map((s) => s.name).join(', '),
        error instanceof Error ? error.message : String(error),
        error,
      );
    }
  }),
};
