import type { RunningTarget, Scenario, TargetPlugin, TargetStartOptions } from '@bench/core';
import { findBinary } from '@bench/core';
import { APACHE_PROCESS_NAMES, apacheBinary, apacheModule, apacheVersion } from '../support/apache-config.js';
import { apacheProtocols, startApacheStack } from '../support/apache-stack.js';
import type { Site } from '../support/site.js';
import { availabilityOf } from '../support/probe.js';
import { servesMany } from '../support/serves-many.js';
import { phpPersistent, phpScriptEnvironment, phpSupports, phpVersion, writePhpIni, type PhpCache } from './php-common.js';

const phpCgiBinary = (): string | undefined => findBinary('php-cgi');

/** What sets one Apache + php-cgi target apart from the other of its family: how Apache runs php-cgi. */
export interface ApachePhpCgiSpec {
  readonly name: string;
  readonly description: string;
  /** The module Apache runs php-cgi through, as a user is told it is missing. */
  readonly module: { readonly binary: string; readonly file: string; readonly aptPackage: string };
  /** LoadModule name -> module file, for every module the stack needs beyond Apache's base set. */
  readonly modules: Readonly<Record<string, string>>;
  readonly cache: PhpCache;
  /** The stack's directives, given its private dir (where php.ini is written), the site and php-cgi's path. */
  readonly directives: (dir: string, site: Site, phpCgi: string, options: TargetStartOptions) => readonly string[];
  readonly settings: (options: TargetStartOptions) => Readonly<Record<string, string | number | boolean>>;
  /** What follows Apache's start (a pool to spawn); it stops the stack itself if it fails. */
  readonly started?: (running: RunningTarget, scenarios: readonly Scenario[], options: TargetStartOptions) => Promise<RunningTarget>;
}

/** A target running the PHP scenarios' index.php in php-cgi processes Apache starts (mod_cgi, mod_fcgid). */
export function apachePhpCgiTarget(spec: ApachePhpCgiSpec): TargetPlugin {
  return {
    name: spec.name,
    language: 'php',
    description: spec.description,
    processNames: [...APACHE_PROCESS_NAMES, 'php-cgi'],
    ...apacheProtocols,
    supports: phpSupports(spec.cache),
    async available() {
      return availabilityOf(
        [
          { binary: 'apache2', path: apacheBinary(), aptPackage: 'apache2' },
          { binary: 'php-cgi', path: phpCgiBinary(), aptPackage: 'php-cgi' },
          { binary: spec.module.binary, path: apacheModule(spec.module.file), aptPackage: spec.module.aptPackage },
        ],
        () => ({ apache: apacheVersion(), php: phpVersion(phpCgiBinary() ?? 'php-cgi') }),
      );
    },
    ...servesMany(async (scenarios, options) => {
      const phpCgi = phpCgiBinary() ?? 'php-cgi';
      const running = await startApacheStack({
        target: spec.name,
        scenarios,
        options,
        handler: 'index.php',
        modules: Object.fromEntries(Object.entries(spec.modules).map(([name, file]) => [name, apacheModule(file) ?? ''])),
        directives: (dir, site) => {
          writePhpIni(dir);
          return spec.directives(dir, site, phpCgi, options);
        },
        environment: phpScriptEnvironment(options.services, spec.cache),
        settings: { php: phpVersion(phpCgi), ...spec.settings(options), persistentConnections: phpPersistent(), outputCache: false },
      });
      return spec.started ? spec.started(running, scenarios, options) : running;
    }),
  };
}
