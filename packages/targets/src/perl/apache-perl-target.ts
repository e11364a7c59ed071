import type { TargetPlugin } from '@bench/core';
import { APACHE_PROCESS_NAMES, apacheBinary, apacheModule, apacheVersion } from '../support/apache-config.js';
import { apacheProtocols, startApacheStack } from '../support/apache-stack.js';
import { servesMany } from '../support/serves-many.js';
import { perlAvailability, perlScriptEnvironment, perlSupports, perlVersion } from './perl-common.js';

/** What sets one Apache + Perl target apart from the others of its family: its module and how it runs index.pl. */
export interface ApachePerlSpec {
  readonly name: string;
  readonly description: string;
  /** Processes beyond Apache's that serve (the script itself, when a process runs per request). */
  readonly extraProcessNames?: readonly string[];
  /** The Apache module that runs the script: its name in LoadModule, its file, the binary a user is told is missing. */
  readonly module: { readonly name: string; readonly file: string; readonly binary: string; readonly aptPackage: string };
  /** The directives that hand index.pl in the document root to the module. */
  readonly handlerDirectives: readonly string[];
  /** Where TechEmpower's cached rows live: a variable of a process that lives on, or memcached. */
  readonly cache: 'process' | 'memcached';
  readonly settings: Readonly<Record<string, string | number | boolean>>;
}

/** A target running the Perl scenarios' index.pl under Apache prefork (mod_cgi, mod_perl). */
export function apachePerlTarget(spec: ApachePerlSpec): TargetPlugin {
  const moduleFile = () => apacheModule(spec.module.file);
  return {
    name: spec.name,
    language: 'perl',
    description: spec.description,
    processNames: [...APACHE_PROCESS_NAMES, ...(spec.extraProcessNames ?? [])],
    ...apacheProtocols,
    supports: perlSupports,
    async available() {
      return perlAvailability(
        [
          { binary: 'apache2', path: apacheBinary(), aptPackage: 'apache2' },
          { binary: spec.module.binary, path: moduleFile(), aptPackage: spec.module.aptPackage },
        ],
        [],
        () => ({ apache: apacheVersion(), perl: perlVersion() }),
      );
    },
    ...servesMany((scenarios, options) =>
      startApacheStack({
        target: spec.name,
        scenarios,
        options,
        handler: 'index.pl',
        modules: { [spec.module.name]: moduleFile() ?? '' },
        directives: (_dir, { documentRoot }) => [
          `<Directory "${documentRoot}">`,
          '  Options +ExecCGI',
          ...spec.handlerDirectives.map((line) => `  ${line}`),
          '</Directory>',
          'DirectoryIndex index.pl',
        ],
        environment: perlScriptEnvironment(options.services, spec.cache),
        settings: { perl: perlVersion(), ...spec.settings, persistentConnections: false },
      }),
    ),
  };
}
