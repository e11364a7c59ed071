import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { benchCacheDir, median } from '@bench/core';
import type { SelfbenchRow } from '@bench/core';

const ceilingSchema = z.object({
  engine: z.string(),
  threads: z.number().int(),
  /** The stack it was reached on (the fastest the selfbench ran). */
  target: z.string(),
  /** Median over rounds of requests answered per second of the generator's CPU time. */
  rpsPerClientCpuSecond: z.number(),
  /** Median rps through bench. */
  rps: z.number(),
});

const savedSchema = z.object({
  measuredAt: z.string(),
  hostname: z.string(),
  cpuModel: z.string(),
  cpus: z.number().int(),
  setting: z.string(),
  ceilings: z.array(ceilingSchema),
});

export type EngineCeiling = z.infer<typeof ceilingSchema>;
export type SavedCeilings = z.infer<typeof savedSchema>;

/** Each engine and thread count's ceiling: the best over the stacks and levels of -c of its median rps per client CPU-second. */
export function ceilingsOf(rows: readonly SelfbenchRow[]): EngineCeiling[] {
  const groups = new Map<string, SelfbenchRow[]>();
  // a ceiling is a closed loop's, as fast as it can go (an open loop at a set rate says what that load costs)
  for (const r of rows.filter((r) => r.bench.cpuSeconds > 0 && r.rate === undefined)) {
    const key = `${r.engine}\u0000${r.threads}\u0000${r.target}\u0000${r.connections}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const best = new Map<string, EngineCeiling>();
  for (const runs of groups.values()) {
    const first = runs[0]!;
    const ceiling = {
      engine: first.engine,
      threads: first.threads,
      target: first.target,
      rpsPerClientCpuSecond: Math.round(median(runs.map((r) => r.bench.requests / r.bench.cpuSeconds))),
      rps: Math.round(median(runs.map((r) => r.bench.rps))),
    };
    const key = `${first.engine}\u0000${first.threads}`;
    if ((best.get(key)?.rpsPerClientCpuSecond ?? -1) < ceiling.rpsPerClientCpuSecond) best.set(key, ceiling);
  }
  return [...best.values()].sort((a, b) => a.engine.localeCompare(b.engine) || a.threads - b.threads);
}

const fileIn = (dir: string) => path.join(dir, 'last-selfbench.json');

/** Keeps the ceilings of this selfbench in bench's cache dir (for bench list and bench doctor); the file's path, if saved. */
export function saveCeilings(rows: readonly SelfbenchRow[], setting: string, now = new Date()): string | undefined {
  const dir = benchCacheDir('selfbench');
  if (!dir) return undefined;
  const cpus = os.cpus();
  const measured = ceilingsOf(rows);
  // engines this selfbench did not run keep their last ceiling here
  const kept = (readCeilings()?.ceilings ?? []).filter((c) => !measured.some((m) => m.engine === c.engine));
  const saved: SavedCeilings = {
    measuredAt: now.toISOString(),
    hostname: os.hostname(),
    cpuModel: cpus[0]?.model ?? 'unknown',
    cpus: cpus.length,
    setting,
    ceilings: [...kept, ...measured].sort((a, b) => a.engine.localeCompare(b.engine) || a.threads - b.threads),
  };
  writeFileSync(fileIn(dir), `${JSON.stringify(saved, null, 2)}\n`);
  return fileIn(dir);
}

/** The last selfbench's ceilings measured on this machine (same hostname), if any. */
export function readCeilings(): SavedCeilings | undefined {
  const dir = benchCacheDir('selfbench');
  if (!dir) return undefined;
  try {
    const saved = savedSchema.parse(JSON.parse(readFileSync(fileIn(dir), 'utf8')));
    return saved.hostname === os.hostname() ? saved : undefined;
  } catch {
    return undefined; // none yet, or unreadable: as if never measured
  }
}

const n = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 0 });

/** One line for an engine: its measured ceiling per client core here, with more threads beside; or how to measure it. */
export function ceilingLine(engine: string, saved: SavedCeilings | undefined): string {
  const mine = saved?.ceilings.filter((c) => c.engine === engine) ?? [];
  const one = mine.find((c) => c.threads === 1) ?? mine[0];
  if (!saved || !one) return 'not measured here (bench selfbench)';
  const more = mine
    .filter((c) => c !== one)
    .map((c) => `, ${c.threads} threads ${n(c.rpsPerClientCpuSecond)}`)
    .join('');
  return `${n(one.rpsPerClientCpuSecond)} rps per client CPU-second${more} (selfbench ${saved.measuredAt.slice(0, 10)}, ${one.target})`;
}

const micros = (c: EngineCeiling) => 1e6 / c.rpsPerClientCpuSecond;

/**
 * For a cell whose generator was the ceiling: the engine that costs the least client CPU per request on this machine,
 * beside this one's, from the last selfbench, among those that can drive the cell; undefined when none cheaper was measured.
 */
export function cheaperEngineLine(
  engine: string,
  canDrive: (engine: string) => boolean,
  saved: SavedCeilings | undefined = readCeilings(),
): string | undefined {
  const single = (saved?.ceilings ?? []).filter((c) => c.threads === 1);
  const mine = single.find((c) => c.engine === engine);
  const cheapest = single.filter((c) => c.engine !== engine && canDrive(c.engine)).sort((a, b) => micros(a) - micros(b))[0];
  if (!saved || !cheapest || (mine && micros(mine) <= micros(cheapest))) return undefined;
  const against = mine ? ` against ${engine}'s ${micros(mine).toFixed(1)}` : '';
  return `${cheapest.engine} costs ${micros(cheapest).toFixed(1)} µs of client CPU per request here${against} (selfbench ${saved.measuredAt.slice(0, 10)}): --engine ${cheapest.engine}`;
}
