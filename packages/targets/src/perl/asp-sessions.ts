import { errors } from '@bench/core';

export type AspStateDb = 'SDBM_File' | 'DB_File';

/**
 * BENCH_ASP_SESSIONS turns Apache::ASP's $Session on, stored in SDBM_File (`1` or `SDBM_File`,
 * Apache::ASP's default, as article 000's ".19, SDBM_File" row) or DB_File (its ".18, DB_File"
 * row); unset or `0` runs without sessions, as its plain ASP PerlScript row.
 */
export function aspSessions(): AspStateDb | undefined {
  const value = process.env.BENCH_ASP_SESSIONS ?? '0';
  if (value === '0' || value === '') return undefined;
  if (value === '1' || value === 'SDBM_File') return 'SDBM_File';
  if (value === 'DB_File') return 'DB_File';
  throw errors.usage(`BENCH_ASP_SESSIONS="${value}" is not valid: expected 0, 1, SDBM_File or DB_File`);
}

/** The Apache::ASP settings for state: none, or $Session (and $Application) in the given database. */
export function aspStateDirectives(stateDb: AspStateDb | undefined): string[] {
  if (!stateDb) return ['PerlSetVar NoState 1'];
  return ['PerlSetVar NoState 0', `PerlSetVar StateDB ${stateDb}`];
}
