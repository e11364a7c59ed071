import path from 'node:path';
import { mkdirSync } from 'node:fs';
import type { TargetPlugin } from '@bench/core';
import { APACHE_PROCESS_NAMES, apacheBinary, apacheModule, apacheVersion } from '../support/apache-config.js';
import { apacheProtocols, startApacheStack } from '../support/apache-stack.js';
import { servesMany } from '../support/serves-many.js';
import { aspSessions, aspStateDirectives } from './asp-sessions.js';
import { perlAvailability, perlScriptEnvironment, perlVersion } from './perl-common.js';
import { perlModuleVersion, templateSupports } from './perl-template.js';

/** Apache prefork + mod_perl2 + Apache::ASP: ASP pages in PerlScript, article 000's "ASP PerlScript" rows. */
export const perlAspTarget: TargetPlugin = {
  name: 'perl-asp',
  language: 'perl',
  description: 'Apache prefork + mod_perl2 + Apache::ASP (ASP pages in PerlScript)',
  processNames: APACHE_PROCESS_NAMES,
  ...apacheProtocols,
  supports: (scenario) => templateSupports(scenario, 'index.asp', 'Apache::ASP'),
  async available() {
    return perlAvailability(
      [
        { binary: 'apache2', path: apacheBinary(), aptPackage: 'apache2' },
        { binary: 'mod_perl', path: apacheModule('mod_perl.so'), aptPackage: 'libapache2-mod-perl2' },
      ],
      [['Apache::ASP', 'libapache-asp-perl']],
      () => ({ apache: apacheVersion(), perl: perlVersion(), asp: perlModuleVersion('Apache::ASP') }),
    );
  },
  ...servesMany(async (scenarios, options) => {
    const stateDb = aspSessions();
    return startApacheStack({
      target: 'perl-asp',
      scenarios,
      options,
      handler: 'index.asp',
      modules: { perl_module: apacheModule('mod_perl.so') ?? '' },
      directives: (dir, { documentRoot: docroot }) => {
        // Apache::ASP needs a Global dir (global.asa, includes) and a writable StateDir: both in the run's private dir
        const global = path.join(dir, 'asp-global');
        const state = path.join(dir, 'asp-state');
        mkdirSync(global, { recursive: true });
        mkdirSync(state, { recursive: true });
        return [
          'PerlModule Apache::ASP',
          `<Directory "${docroot}">`,
          '  <Files "*.asp">',
          '    SetHandler perl-script',
          '    PerlResponseHandler Apache::ASP',
          `    PerlSetVar Global "${global}"`,
          `    PerlSetVar StateDir "${state}"`,
          ...aspStateDirectives(stateDb).map((line) => `    ${line}`),
          '  </Files>',
          '</Directory>',
          'DirectoryIndex index.asp',
        ];
      },
      environment: perlScriptEnvironment(options.services, 'process'),
      settings: {
        perl: perlVersion(),
        handler: 'Apache::ASP',
        asp: perlModuleVersion('Apache::ASP'),
        sessions: stateDb ?? false,
        persistentConnections: false,
      },
    });
  }),
};
