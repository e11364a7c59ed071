import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchCacheDir, describeMachine, median, z } from '@bench/core';
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

const costSchema = z.object({
  engine: z.string(),
  threads: z.number().int(),
  target: z.string(),
  connections: z.number().int(),
  /** Median over rounds of the generator's CPU per answered request through bench, µs. */
  usPerRequest: z.number(),
  /** The selfbench that measured it. */
  measuredAt: z.string(),
});

const savedSchema = z.object({
  measuredAt: z.string(),
  hostname: z.string(),
  cpuModel: z.string(),
  cpus: z.number().int(),
  setting: z.string(),
  ceilings: z.array(ceilingSchema),
  /** Each engine's cost per request on each stack and level of -c (absent in files older than it). */
  costs: z.array(costSchema).optional(),
});

export type EngineCeiling = z.infer<typeof ceilingSchema>;
export type EngineCost = z.infer<typeof costSchema>;
export type SavedCeilings = z.infer<typeof savedSchema>;

// a ceiling or a cost is a closed loop's, as fast as it can go (an open loop at a set rate says what that load costs)
const closedLoopRows = (rows: readonly SelfbenchRow[]) => rows.filter((r) => r.bench.cpuSeconds > 0 && r.rate === undefined);

/** The rounds of each engine, thread count, stack and level of -c. */
function byStack(rows: readonly SelfbenchRow[]): SelfbenchRow[][] {
  const groups = new Map<string, SelfbenchRow[]>();
  for (const r of closedLoopRows(rows)) {
    const key = `${r.engine}\u0000${r.threads}\u0000${r.target}\u0000${r.connections}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups.values()];
}

/** Each engine's median client CPU per request on each stack and level of -c this selfbench ran. */
export function costsOf(rows: readonly SelfbenchRow[], measuredAt: string): EngineCost[] {
  return byStack(rows).map((runs) => {
    const first = runs[0]!;
    return {
      engine: first.engine,
      threads: first.threads,
      target: first.target,
      connections: first.connections,
      usPerRequest: Math.round(median(runs.map((r) => (r.bench.cpuSeconds * 1e6) / r.bench.requests)) * 10) / 10,
      measuredAt,
    };
  });
}

/** Each engine and thread count's ceiling: the best over the stacks and levels of -c of its median rps per client CPU-second. */
export function ceilingsOf(rows: readonly SelfbenchRow[]): EngineCeiling[] {
  const best = new Map<string, EngineCeiling>();
  for (const runs of byStack(rows)) {
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
  const machine = describeMachine();
  const measured = ceilingsOf(rows);
  const costs = costsOf(rows, now.toISOString());
  // engines this selfbench did not run keep their last ceiling and costs here
  const last = readCeilings();
  const kept = (last?.ceilings ?? []).filter((c) => !measured.some((m) => m.engine === c.engine));
  const keptCosts = (last?.costs ?? []).filter((c) => !costs.some((m) => m.engine === c.engine));
  const saved: SavedCeilings = {
    measuredAt: now.toISOString(),
    hostname: machine.hostname,
    cpuModel: machine.cpuModel,
    cpus: machine.cpus,
    setting,
    ceilings: [...kept, ...measured].sort((a, b) => a.engine.localeCompare(b.engine) || a.threads - b.threads),
    costs: [...keptCosts, ...costs],
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

const sameRun = (a: EngineCost, b: EngineCost) => a.target === b.target && a.connections === b.connections && a.measuredAt === b.measuredAt;
const where = (c: EngineCost) => `${c.target}, -c ${c.connections}, selfbench ${c.measuredAt.slice(0, 10)}`;

/**
 * For a cell whose generator was the ceiling: an engine that costs less client CPU per request on this machine, from the
 * last selfbench, among those that can drive the cell. It is compared with this one on the same stack and level of -c
 * of one selfbench (the highest -c they share), never across stacks or runs. An engine never measured beside this one
 * (this one never measured here, or only in another selfbench) is given with its own cost alone, when that is below
 * the least this one cost anywhere. Undefined when none cheaper was measured.
 */
export function cheaperEngineLine(
  engine: string,
  canDrive: (engine: string) => boolean,
  saved: SavedCeilings | undefined = readCeilings(),
): string | undefined {
  const single = (saved?.costs ?? []).filter((c) => c.threads === 1);
  const mine = single.filter((c) => c.engine === engine);
  const others = single.filter((c) => c.engine !== engine && canDrive(c.engine));
  const hint = (c: EngineCost, against: string) =>
    `${c.engine} costs ${c.usPerRequest.toFixed(1)} µs of client CPU per request here${against} (${where(c)}): --engine ${c.engine}`;
  const cheaper = others
    .flatMap((other) => {
      const beside = mine.find((m) => sameRun(m, other));
      return beside && other.usPerRequest < beside.usPerRequest ? [{ other, beside }] : [];
    })
    .sort((a, b) => b.other.connections - a.other.connections || a.other.usPerRequest - b.other.usPerRequest)[0];
  if (cheaper) return hint(cheaper.other, ` against ${engine}'s ${cheaper.beside.usPerRequest.toFixed(1)}`);
  // engines measured beside this one were not cheaper there; the others are told on their own figure
  const besideMine = new Set(others.filter((o) => mine.some((m) => sameRun(m, o))).map((o) => o.engine));
  const least = Math.min(...mine.map((m) => m.usPerRequest));
  const cheapest = others.filter((o) => !besideMine.has(o.engine)).sort((a, b) => a.usPerRequest - b.usPerRequest)[0];
  return cheapest && cheapest.usPerRequest < least ? hint(cheapest, '') : undefined;
}
