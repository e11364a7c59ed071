import { execFileSync } from 'node:child_process';
import type { Scenario, Support } from '@bench/core';
import { findBinary } from '@bench/core';
import { handlerSupport } from '../support/folder.js';
import { perlDatabaseSupport } from './perl-common.js';

/** A Perl template engine serves the scenarios that have its template (index.epl, index.asp), static ones through Apache. */
export const templateSupports = (scenario: Scenario, template: string, engine: string): Support => {
  const database = perlDatabaseSupport(scenario);
  if (!database.ok) return database;
  return handlerSupport(
    scenario,
    template,
    `no ${template}: ${engine} pages exist for hello, loop, big, db and cache (article 000's tests) and TechEmpower's seven types`,
  );
};

/** The version a Perl module declares ($Module::VERSION), or 'unknown'. */
export function perlModuleVersion(module: string): string {
  try {
    return (
      execFileSync(findBinary('perl') ?? 'perl', [`-M${module}`, '-e', `print $${module}::VERSION`], {
        encoding: 'utf8',
        timeout: 10_000,
      }) || 'unknown'
    );
  } catch {
    return 'unknown';
  }
}
