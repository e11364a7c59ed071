import type { TechempowerShape } from './suite-schema.js';

/**
 * The TFB entry a stack stands for, on the run's database: suite.json names its MySQL entries; on PostgreSQL (--db
 * postgres) the same stack stands for the entry's PostgreSQL twin, as TFB names them ([postgres], raw PostgreSQL).
 */
export function techempowerEntry(shape: TechempowerShape, target: string, db: unknown): string | undefined {
  const entry = shape.entries[target];
  if (entry === undefined || db !== 'postgres') return entry;
  return entry.replace(/\[mysql\]/g, '[postgres]').replace(/MySQL/g, 'PostgreSQL');
}

/** The database TFB's results.json names for a run of bench on this database. */
export const techempowerDatabase = (db: unknown): string => (db === 'postgres' ? 'Postgres' : 'MySQL');
