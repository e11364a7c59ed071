import { median, type MachineInfo, type SelfbenchRow, type SelfbenchSide } from '@bench/core';
import { machineSummary } from '../machine-line.js';

const n = (value: number, digits = 0) => value.toLocaleString('en-US', { maximumFractionDigits: digits });
// requests answered per second of the generator's CPU time: what one core of client buys
const perCpuSecond = (side: SelfbenchSide) => side.requests / side.cpuSeconds;
const perCpu = (side: SelfbenchSide | undefined) => (side && side.cpuSeconds > 0 ? n(perCpuSecond(side)) : '-');
// the generator's CPU per answered request, in microseconds
const microsPerRequest = (side: SelfbenchSide) =>
  side.requests > 0 && side.cpuSeconds > 0 ? (side.cpuSeconds * 1e6) / side.requests : undefined;
const us = (value: number | undefined) => (value === undefined ? '-' : n(value, 1));
const ratio = (r: SelfbenchRow) => (r.bare ? r.bench.rps / r.bare.rps : undefined);
const engineLabel = (r: SelfbenchRow) => (r.rate !== undefined ? `${r.engine} at ${n(r.rate)} rps` : r.engine);
const medianOf = (values: readonly (number | undefined)[]) => {
  const known = values.filter((v): v is number => v !== undefined);
  return known.length > 0 ? median(known) : undefined;
};

/** A rate is held when every round answered it within this share of it. */
const HELD_WITHIN = 0.01;

/** Each open loop's rate: its rounds' rps, whether every one held it, and its lateness. */
function rateLines(rows: readonly SelfbenchRow[]): string[] {
  const atRates = rows.filter((r) => r.rate !== undefined);
  return [...groupBy(atRates, (r) => `${r.target}\u0000${r.connections}\u0000${r.engine}\u0000${r.threads}\u0000${r.rate}`).values()].map(
    (runs) => {
      const first = runs[0]!;
      const rate = first.rate!;
      const held = runs.every((r) => Math.abs(r.bench.rps - rate) <= rate * HELD_WITHIN);
      const late = (pick: 'p50' | 'p99') => medianOf(runs.map((r) => r.bench.lateMs?.[pick]));
      const ms = (value: number | undefined) => (value === undefined ? '-' : n(value, 2));
      return `| ${first.target} | ${first.connections} | ${first.engine} | ${first.threads} | ${n(rate)} | ${runs.map((r) => n(r.bench.rps)).join(' / ')} | ${held ? 'yes' : 'no'} | ${ms(late('p50'))} | ${ms(late('p99'))} |`;
    },
  );
}

function groupBy<K>(rows: readonly SelfbenchRow[], key: (r: SelfbenchRow) => K): Map<K, SelfbenchRow[]> {
  const groups = new Map<K, SelfbenchRow[]>();
  for (const r of rows) groups.set(key(r), [...(groups.get(key(r)) ?? []), r]);
  return groups;
}

/**
 * The yardstick of a stack and level: the bare tool that cost least client CPU per request there (wrk, where it ran),
 * its median µs per request.
 */
function yardsticks(rows: readonly SelfbenchRow[]): Map<string, { engine: string; micros: number }> {
  const best = new Map<string, { engine: string; micros: number }>();
  for (const runs of groupBy(rows, (r) => `${r.target}\u0000${r.connections}\u0000${r.engine}\u0000${r.threads}`).values()) {
    const micros = medianOf(runs.map((r) => (r.bare ? microsPerRequest(r.bare) : undefined)));
    const first = runs[0]!;
    const key = `${first.target}\u0000${first.connections}`;
    if (micros !== undefined && micros < (best.get(key)?.micros ?? Number.POSITIVE_INFINITY))
      best.set(key, { engine: first.engine, micros });
  }
  return best;
}

/** Resident memory a connection adds to a generator: the slope of its median RSS from the fewest connections to the most. */
function memoryPerConnection(runs: readonly SelfbenchRow[], side: 'bench' | 'bare'): number | undefined {
  const byLevel = [...groupBy(runs, (r) => r.connections).entries()].sort(([a], [b]) => a - b);
  if (byLevel.length < 2) return undefined;
  const rss = (level: SelfbenchRow[]) => medianOf(level.map((r) => r[side]?.rssBytes));
  const [low, lowRuns] = byLevel[0]!;
  const [high, highRuns] = byLevel.at(-1)!;
  const [a, b] = [rss(lowRuns), rss(highRuns)];
  return a === undefined || b === undefined ? undefined : (b - a) / (high - low);
}

/**
 * Every round, then per stack, level, engine and threads: the median ratio of bench to the bare tool, the rps each
 * reached per client CPU-second, client CPU per request beside the yardstick's (the cheapest bare tool at that stack
 * and level), and an in-process engine's event-loop lag; last, the memory each connection adds to each generator. The
 * figures hold for the machine they were taken on (user-space code and the kernel cost differently on another CPU).
 */
export function renderSelfbench(rows: readonly SelfbenchRow[], setting: string, machine?: MachineInfo): string {
  const out = [
    `bench through each engine (A) against the same tool run bare (B), same running server, ${setting}${machine ? `, on ${machineSummary(machine)}` : ''}; rps per client CPU-second = requests answered per second of the generator's CPU time; µs/req = the generator's CPU per answered request (a bare tool's over its whole life and an in-process engine's, bench's whole process over its run, as the kernel counted them; an external tool through bench, sampled from /proc).`,
    '',
    '| target | c | engine | threads | round | first | through bench rps | bare rps | ratio | bench rps per client CPU-s | bare rps per client CPU-s | bench µs/req | bare µs/req |',
    '| --- | ---: | --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of rows) {
    out.push(
      `| ${r.target} | ${r.connections} | ${engineLabel(r)} | ${r.threads} | ${r.round} | ${r.bare ? r.first : '-'} | ${n(r.bench.rps)} | ${r.bare ? n(r.bare.rps) : '-'} | ${ratio(r)?.toFixed(2) ?? '-'} | ${perCpu(r.bench)} | ${perCpu(r.bare)} | ${us(microsPerRequest(r.bench))} | ${us(r.bare ? microsPerRequest(r.bare) : undefined)} |`,
    );
  }
  const sticks = yardsticks(rows);
  // an engine's closed loop at a stack, level and thread count: what its requests at a set rate are held against
  const closedMicros = new Map(
    [...groupBy(rows, (r) => `${r.target}\u0000${r.connections}\u0000${r.engine}\u0000${r.threads}\u0000${r.rate ?? ''}`).values()]
      .filter((runs) => runs[0]!.rate === undefined)
      .map((runs) => {
        const first = runs[0]!;
        return [
          `${first.target}\u0000${first.connections}\u0000${first.engine}\u0000${first.threads}`,
          medianOf(runs.map((r) => microsPerRequest(r.bench))),
        ];
      }),
  );
  out.push(
    '',
    '| target | c | engine | threads | median ratio | median rps through bench | median rps per client CPU-s | median µs/req through bench | bare | × yardstick | event-loop p99 ms |',
    '| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const runs of groupBy(
    rows,
    (r) => `${r.target}\u0000${r.connections}\u0000${r.engine}\u0000${r.threads}\u0000${r.rate ?? ''}`,
  ).values()) {
    const first = runs[0]!;
    const cpu = runs.filter((r) => r.bench.cpuSeconds > 0).map((r) => perCpuSecond(r.bench));
    const ratios = runs.flatMap((r) => (r.bare ? [r.bench.rps / r.bare.rps] : []));
    const benchMicros = medianOf(runs.map((r) => microsPerRequest(r.bench)));
    const bareMicros = medianOf(runs.map((r) => (r.bare ? microsPerRequest(r.bare) : undefined)));
    const stick = sticks.get(`${first.target}\u0000${first.connections}`);
    const closed = closedMicros.get(`${first.target}\u0000${first.connections}\u0000${first.engine}\u0000${first.threads}`);
    const times =
      first.rate !== undefined
        ? closed !== undefined && benchMicros !== undefined
          ? `${(benchMicros / closed).toFixed(2)} (its closed loop)`
          : '-'
        : stick && benchMicros !== undefined
          ? `${(benchMicros / stick.micros).toFixed(2)} (bare ${stick.engine})`
          : '-';
    const lag = medianOf(runs.map((r) => r.bench.eventLoopP99Ms));
    out.push(
      `| ${first.target} | ${first.connections} | ${engineLabel(first)} | ${first.threads} | ${ratios.length ? median(ratios).toFixed(2) : '-'} | ${n(median(runs.map((r) => r.bench.rps)))} | ${cpu.length ? n(median(cpu)) : '-'} | ${us(benchMicros)} | ${us(bareMicros)} | ${times} | ${lag === undefined ? '-' : n(lag, 1)} |`,
    );
  }
  const memory = [...groupBy(rows, (r) => `${r.target}\u0000${r.engine}\u0000${r.threads}\u0000${r.rate ?? ''}`).values()].flatMap(
    (runs) => {
      const first = runs[0]!;
      const bench = memoryPerConnection(runs, 'bench');
      const bare = memoryPerConnection(runs, 'bare');
      if (bench === undefined && bare === undefined) return [];
      const kb = (bytes: number | undefined) => (bytes === undefined ? '-' : n(bytes / 1024, 1));
      return [`| ${first.target} | ${engineLabel(first)} | ${first.threads} | ${kb(bench)} | ${kb(bare)} |`];
    },
  );
  if (memory.length > 0)
    out.push(
      '',
      'Memory a connection adds to the generator: the slope of its resident memory (median over rounds) from the fewest connections to the most (KB; through bench, the whole of bench’s process).',
      '',
      '| target | engine | threads | through bench KB per connection | bare KB per connection |',
      '| --- | --- | ---: | ---: | ---: |',
      ...memory,
    );
  if (rows.some((r) => r.rate !== undefined))
    out.push(
      '',
      'An open loop runs at its set rate, not as fast as it can: its rps per client CPU-s is what that load costs at each thread count (not a ceiling; it has no bare tool to compare with). Where the same engine also ran closed (wire), × compares its µs/req at the rate with its closed loop’s in the same rounds.',
      '',
      `Each rate: held when every round answered it within ${HELD_WITHIN * 100}%, and how late the loop sent its requests after they were due (median over rounds of each round's p50 and p99, ms).`,
      '',
      '| target | c | engine | threads | rate | rps, each round | held | late p50 ms | late p99 ms |',
      '| --- | ---: | --- | ---: | ---: | ---: | --- | ---: | ---: |',
      ...rateLines(rows),
    );
  return `${out.join('\n')}\n`;
}
