import { execFileSync } from 'node:child_process';
import type { Availability, Scenario, ServiceEndpoints, Support } from '@bench/core';
import { serviceEnvironment } from '../support/service-env.js';
import { findBinary } from '@bench/core';
import { handlerSupport } from '../support/folder.js';
import { notInstalled, partMissing, versionFrom } from '@bench/core';

let dbdPgMissing: boolean | undefined;

/** PostgreSQL's driver, asked for only by a run on PostgreSQL (--db postgres): the other runs need not install it. */
export function perlDatabaseSupport(scenario: Scenario): Support {
  if (!scenario.services.includes('postgres')) return { ok: true };
  dbdPgMissing ??= missingPerlModules([], [['DBD::Pg', 'libdbd-pg-perl']]).length > 0;
  return dbdPgMissing ? partMissing('it reaches PostgreSQL through DBD::Pg', ['libdbd-pg-perl']) : { ok: true };
}

/** Perl serves a dynamic scenario through its CGI-style index.pl; static ones come from the web server. */
export const perlSupports = (scenario: Scenario): Support => {
  const database = perlDatabaseSupport(scenario);
  return database.ok ? handlerSupport(scenario, 'index.pl') : database;
};

/**
 * What the Perl scripts read from %ENV: backend endpoints, and where TechEmpower's cached rows live (a variable of a
 * process that lives on, or memcached under CGI).
 */
export const perlScriptEnvironment = (services: ServiceEndpoints, cache: 'process' | 'memcached'): Record<string, string> => ({
  ...serviceEnvironment(services),
  BENCH_CACHE: cache,
});

// The modules the scenarios use, and the Debian package of each.
const PERL_MODULES: ReadonlyArray<[string, string]> = [
  ['DBI', 'libdbi-perl'],
  ['DBD::MariaDB', 'libdbd-mariadb-perl'],
  ['Redis', 'libredis-perl'],
  ['Cache::Memcached::Fast', 'libcache-memcached-fast-perl'],
  ['JSON::XS', 'libjson-xs-perl'],
];

/** Perl modules that cannot be loaded, with their packages. */
export function missingPerlModules(
  extra: ReadonlyArray<[string, string]> = [],
  modules: ReadonlyArray<[string, string]> = PERL_MODULES,
): Array<[string, string]> {
  const perl = findBinary('perl');
  if (!perl) return [['perl', 'perl']];
  return [...modules, ...extra].filter(([module]) => {
    try {
      execFileSync(perl, [`-M${module}`, '-e', '1'], { stdio: 'ignore', timeout: 10_000 });
      return false;
    } catch {
      return true;
    }
  });
}

export function perlVersion(): string {
  return versionFrom(findBinary('perl') ?? 'perl', ['-e', 'printf "%vd", $^V'], /^(\S+)$/);
}

/** Availability from missing binaries plus missing Perl modules. */
export function perlAvailability(
  binaries: ReadonlyArray<{ binary: string; path: string | undefined; aptPackage: string }>,
  extraModules: ReadonlyArray<[string, string]>,
  versions: () => Record<string, string>,
): Availability {
  const missing = [
    ...binaries.filter((b) => !b.path).map((b) => [b.binary, b.aptPackage] as [string, string]),
    ...missingPerlModules(extraModules),
  ];
  if (missing.length === 0) return { ok: true, versions: versions() };
  return notInstalled(
    missing.map(([name]) => name),
    missing.map(([, pkg]) => pkg),
  );
}
