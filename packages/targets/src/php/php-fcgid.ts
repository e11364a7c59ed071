import path from 'node:path';
import { messageOf, errors } from '@bench/core';
import { apachePhpCgiTarget } from './apache-php-cgi-target.js';
import { fcgidPoolDirectives, fcgidPoolSize, spawnPool, writePoolScript } from './fcgid-pool.js';

/**
 * Apache + mod_fcgid running php-cgi as persistent FastCGI processes: article 003's FastCGI row.
 * mod_fcgid spawns the php-cgi processes itself (a pool of one per connection, spawned before load follows);
 * php-cgi keeps no children of its own.
 */
export const phpFcgidTarget = apachePhpCgiTarget({
  name: 'php-fcgid',
  description: 'Apache + mod_fcgid running php-cgi as FastCGI processes',
  module: { binary: 'mod_fcgid', file: 'mod_fcgid.so', aptPackage: 'libapache2-mod-fcgid' },
  modules: { fcgid_module: 'mod_fcgid.so' },
  cache: 'apcu',
  directives: (dir, { documentRoot }, phpCgi, options) => {
    writePoolScript(documentRoot);
    return [
      `FcgidIPCDir "${path.join(dir, 'fcgid')}"`,
      `FcgidProcessTableFile "${path.join(dir, 'fcgid-shm')}"`,
      ...fcgidPoolDirectives(fcgidPoolSize(options.workers, options.maxConcurrency)),
      // processes live for the whole run: no recycling after N requests (php-cgi's own default is 500)
      'FcgidMaxRequestsPerProcess 0',
      'FcgidInitialEnv PHP_FCGI_MAX_REQUESTS 0',
      'FcgidInitialEnv PHP_FCGI_CHILDREN 0',
      `FcgidInitialEnv PHPRC "${dir}"`,
      'FcgidIOTimeout 60',
      `<Directory "${documentRoot}">`,
      '  Options +ExecCGI',
      '  <FilesMatch "\\.php$">',
      '    SetHandler fcgid-script',
      `    FcgidWrapper "${phpCgi}" .php`,
      '  </FilesMatch>',
      '</Directory>',
      'DirectoryIndex index.php',
    ];
  },
  settings: (options) => ({ fcgidMaxProcesses: fcgidPoolSize(options.workers, options.maxConcurrency) }),
  // bench verify checks one answer: the pool is spawned only where load follows
  async started(running, scenarios, options) {
    if (!options.warmUp) return running;
    try {
      const transport = { protocol: options.protocol ?? 'http1', ...(options.tls ? { caFile: options.tls.caFile } : {}) };
      const pool = await spawnPool(running.url, running.processGroups, fcgidPoolSize(options.workers, options.maxConcurrency), transport);
      return { ...running, settings: { ...running.settings, fcgidPoolSpawnSeconds: pool.seconds } };
    } catch (error) {
      await running.stop();
      throw errors.targetStart('php-fcgid', scenarios.map((s) => s.name).join(', '), messageOf(error), error);
    }
  },
});
