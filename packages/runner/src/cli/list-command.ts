import { loadScenarios } from '@bench/core';
import { builtinTargets } from '@bench/targets';
import { formatTable } from './format-table.js';

export async function listCommand(): Promise<void> {
  const scenarios = loadScenarios();
  const out: string[] = ['Scenarios', ''];
  out.push(
    formatTable(
      ['name', 'path', 'from', 'needs', 'what'],
      scenarios.map((s) => [s.name, s.path, s.from.join(','), s.services.join(',') || '-', s.title]),
    ),
  );
  out.push('', 'Targets', '');
  const rows: string[][] = [];
  for (const target of builtinTargets) {
    const availability = await target.available();
    const versions = Object.entries(availability.versions ?? {}).map(([k, v]) => `${k} ${v}`).join(', ');
    const unsupported = scenarios.filter((s) => !target.supports(s).ok).map((s) => s.name);
    rows.push([
      target.name,
      target.language,
      availability.ok ? 'yes' : `no: ${availability.reason ?? ''}`,
      availability.ok ? versions : '',
      unsupported.length ? `all but ${unsupported.join(', ')}` : 'all',
      target.description,
    ]);
  }
  out.push(formatTable(['name', 'language', 'available', 'versions', 'scenarios', 'stack'], rows));
  const cannot = builtinTargets.flatMap((t) =>
    scenarios.flatMap((s) => {
      const support = t.supports(s);
      return support.ok ? [] : [`  ${t.name} / ${s.name}: ${support.reason}`];
    }),
  );
  if (cannot.length) out.push('', 'Not supported', '', ...cannot);
  process.stdout.write(`${out.join('\n')}\n`);
}
