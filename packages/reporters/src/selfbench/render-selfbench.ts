import { median, type SelfbenchRow } from '@bench/core';

const n = (value: number, digits = 0) => value.toLocaleString('en-US', { maximumFractionDigits: digits });
// requests answered per second of the generator's CPU time: what one core of client buys
const perCpuSecond = (side: SelfbenchRow['bench']) => side.requests / side.cpuSeconds;
const perCpu = (side: SelfbenchRow['bench'] | undefined) => (side && side.cpuSeconds > 0 ? n(perCpuSecond(side)) : '-');
const ratio = (r: SelfbenchRow) => (r.bare ? r.bench.rps / r.bare.rps : undefined);
const engineLabel = (r: SelfbenchRow) => (r.rate !== undefined ? `${r.engine} at ${n(r.rate)} rps` : r.engine);

/** Every round, then per target and engine the median ratio and the rps each side reached per client CPU-second. */
export function renderSelfbench(rows: readonly SelfbenchRow[], setting: string): string {
  const out = [
    `bench through each engine (A) against the same tool run bare (B), same running server, ${setting}; rps per client CPU-second = requests answered per second of the generator's CPU time.`,
    '',
    '| target | engine | threads | round | first | through bench rps | bare rps | ratio | bench rps per client CPU-s | bare rps per client CPU-s |',
    '| --- | --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of rows) {
    out.push(
      `| ${r.target} | ${engineLabel(r)} | ${r.threads} | ${r.round} | ${r.bare ? r.first : '-'} | ${n(r.bench.rps)} | ${r.bare ? n(r.bare.rps) : '-'} | ${ratio(r)?.toFixed(2) ?? '-'} | ${perCpu(r.bench)} | ${perCpu(r.bare)} |`,
    );
  }
  out.push(
    '',
    '| target | engine | threads | median ratio | median rps through bench | median rps per client CPU-s |',
    '| --- | --- | ---: | ---: | ---: | ---: |',
  );
  const groups = new Map<string, SelfbenchRow[]>();
  for (const r of rows) {
    const key = `${r.target}\u0000${r.engine}\u0000${r.threads}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  for (const runs of groups.values()) {
    const first = runs[0]!;
    const cpu = runs.filter((r) => r.bench.cpuSeconds > 0).map((r) => perCpuSecond(r.bench));
    const ratios = runs.flatMap((r) => (r.bare ? [r.bench.rps / r.bare.rps] : []));
    out.push(
      `| ${first.target} | ${engineLabel(first)} | ${first.threads} | ${ratios.length ? median(ratios).toFixed(2) : '-'} | ${n(median(runs.map((r) => r.bench.rps)))} | ${cpu.length ? n(median(cpu)) : '-'} |`,
    );
  }
  if (rows.some((r) => r.rate !== undefined))
    out.push(
      '',
      'An open loop runs at its set rate, not as fast as it can: its rps per client CPU-s is what that load costs at each thread count (not a ceiling; it has no bare tool to compare with).',
    );
  return `${out.join('\n')}\n`;
}
