import { protocolsOf } from '@bench/core';
import { article000Stacks, describeToday } from '@bench/suites';
import { loadProject } from '../project/project.js';
import { formatTable } from './format-table.js';
import { projectPluginNames } from './plugin-names.js';
import { ceilingLine, readCeilings } from '@bench/engines';
import { builtinReporterNames } from '../reporters/load-reporters.js';

/** Scenarios, targets (with what each cannot serve), engines and reporters, with availability here. */
export async function listCommand(flags: { config?: string; all?: boolean }): Promise<void> {
  const project = await loadProject(flags.config !== undefined ? { configFile: flags.config } : {});
  const { scenarios, targets, engines } = project;
  const out: string[] = ['Scenarios', ''];
  out.push(
    formatTable(
      ['name', 'request', 'from', 'needs', 'what'],
      scenarios.map((s) => [
        s.name,
        `${s.request.method} ${s.request.path}`,
        s.from.join(',') || '-',
        s.services.join(',') || '-',
        s.title,
      ]),
    ),
  );
  out.push('', 'Targets', '');
  const rows: string[][] = [];
  for (const target of targets) {
    const availability = await target.available();
    const versions = Object.entries(availability.versions ?? {})
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    const unsupported = scenarios.filter((s) => !target.supports(s).ok).map((s) => s.name);
    rows.push([
      target.name,
      target.language,
      availability.ok ? 'yes' : `no: ${availability.reason ?? ''}`,
      availability.ok ? versions : '',
      unsupported.length === 0 ? 'all' : unsupported.length === scenarios.length ? 'none' : `all but ${unsupported.join(', ')}`,
      target.description,
    ]);
  }
  out.push(formatTable(['name', 'language', 'available', 'versions', 'scenarios', 'stack'], rows));
  // what each target's server can speak (--protocol); the rest speak HTTP/1.1 only
  const speaking = targets.filter((t) => (t.protocols && t.protocols.length > 1) || t.protocolsNote);
  out.push('', 'Protocols (--protocol; every other target serves http1 only)', '');
  out.push(
    formatTable(
      ['target', 'protocols', 'why not more'],
      speaking.map((t) => [t.name, protocolsOf(t).join(', '), t.protocolsNote ?? '-']),
    ),
  );
  out.push('', 'Load engines', '');
  const engineRows: string[][] = [];
  const ceilings = readCeilings();
  for (const engine of engines) {
    const a = await engine.available();
    engineRows.push([
      engine.name,
      a.ok ? `yes (${a.version ?? 'unknown'})` : `no: ${a.reason ?? ''}`,
      ceilingLine(engine.name, ceilings),
      // what it speaks (--protocol), and whether it checks the server's certificate under load
      `${protocolsOf(engine).join(', ')}${engine.verifiesCertificates === false ? ' (no certificate check)' : ''}`,
      engine.description,
    ]);
  }
  out.push(formatTable(['name', 'available', 'ceiling per client core', 'protocols', 'what'], engineRows));
  // what of a workload each engine runs (a scenario that needs more is refused with the engines that can)
  const can = (yes: boolean | undefined) => (yes ? 'yes' : '-');
  out.push('', 'Workloads (docs/workloads.md)', '');
  out.push(
    formatTable(
      ['engine', 'generated values', 'flows', 'mixes', 'think time', 'export'],
      engines.map((engine) => [
        engine.name,
        can(engine.workloads?.templates),
        can(engine.workloads?.flows),
        can(engine.workloads?.mixes),
        can(engine.workloads?.thinkTime),
        engine.exporter ? `bench export ${engine.name}` : '-',
      ]),
    ),
  );
  out.push('', 'Reporters', '');
  out.push(
    formatTable(
      ['name', 'from'],
      projectPluginNames(project).reporters.map((name) => [name, builtinReporterNames.includes(name) ? 'built-in' : 'config']),
    ),
  );
  const cannot = targets.flatMap((t) =>
    scenarios.flatMap((s) => {
      const support = t.supports(s);
      return support.ok || !s.folder ? [] : [`  ${t.name} / ${s.name}: ${support.reason}`];
    }),
  );
  if (cannot.length) out.push('', 'Not supported', '', ...cannot);
  if (flags.all) {
    // every stack article 000 compared: the target that stands for it today, or why none does
    out.push('', "Article 000's stacks", '');
    out.push(
      formatTable(
        ['stack', 'today'],
        article000Stacks.map((s) => [s.stack, describeToday(s)]),
      ),
    );
  }
  process.stdout.write(`${out.join('\n')}\n`);
}
