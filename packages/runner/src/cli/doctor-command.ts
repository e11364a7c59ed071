import { aptInstallLine, onDatabase, type Support, type TargetPlugin } from '@bench/core';
import { loadProject, type Project } from '../project/project.js';
import { openHosts, type HostOptions } from '../run/run-hosts.js';
import { describeServices } from '@bench/services';
import { formatTable } from './format-table.js';
import { ceilingLine, readCeilings } from '@bench/engines';

/** What is installed here, or (--server-host) on that host, with what is missing and the apt-get line to get it. */
export async function doctorCommand(flags: { config?: string } & HostOptions): Promise<void> {
  const hosts = await openHosts(flags);
  if (hosts) {
    try {
      process.stdout.write(`On ${hosts.server.label}:\n\n${await hosts.server.doctor()}`);
    } finally {
      await hosts.close();
    }
    return;
  }
  const project = await loadProject(flags.config !== undefined ? { configFile: flags.config } : {});
  process.stdout.write(await doctorText(project));
}

/** Why a target that serves TechEmpower's database types on MariaDB cannot on PostgreSQL (--db postgres): its driver. */
function missingPostgresDriver(project: Project, target: TargetPlugin): Support | undefined {
  const served = project.scenarios.filter((s) => s.tfb !== undefined && s.services.includes('mysql') && target.supports(s).ok);
  return served.map((s) => target.supports(onDatabase(s, 'postgres'))).find((support) => !support.ok);
}

/** `bench doctor`'s table of this machine: every target, engine and service, found or not, and what to install. */
export async function doctorText(project: Project): Promise<string> {
  const rows: string[][] = [];
  const missingPackages = new Set<string>();
  const install = (packages: readonly string[] | undefined) => (packages?.length ? aptInstallLine(packages) : '');
  for (const target of project.targets) {
    const a = await target.available();
    const versions = Object.entries(a.versions ?? {})
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    if (!a.ok) for (const pkg of a.aptPackages ?? []) missingPackages.add(pkg);
    rows.push(['target', target.name, a.ok ? 'yes' : 'no', a.ok ? versions : (a.reason ?? ''), a.ok ? '' : install(a.aptPackages)]);
    const driver = a.ok ? missingPostgresDriver(project, target) : undefined;
    if (driver && !driver.ok) {
      for (const pkg of driver.aptPackages ?? []) missingPackages.add(pkg);
      rows.push(['target', `${target.name} --db postgres`, 'no', driver.reason, install(driver.aptPackages)]);
    }
  }
  const ceilings = readCeilings();
  for (const engine of project.engines) {
    const a = await engine.available();
    if (!a.ok) for (const pkg of a.aptPackages ?? []) missingPackages.add(pkg);
    rows.push([
      'engine',
      engine.name,
      a.ok ? 'yes' : 'no',
      a.ok ? `${engine.name} ${a.version ?? ''}; ceiling per client core: ${ceilingLine(engine.name, ceilings)}` : (a.reason ?? ''),
      a.ok ? '' : install(a.aptPackages),
    ]);
  }
  for (const service of await describeServices()) {
    if (!service.found) missingPackages.add(service.aptPackage);
    rows.push([
      'service',
      service.name,
      service.found ? 'yes' : 'no',
      service.found ? `${service.binary} ${service.version ?? ''}`.trim() : `${service.binary} not found (or set ${service.urlVariable})`,
      service.found ? '' : aptInstallLine([service.aptPackage]),
    ]);
  }
  return `${formatTable(['kind', 'name', 'available', 'found / missing', 'to install'], rows)}\n${
    missingPackages.size
      ? `\nTo install everything missing (as root): apt-get install -y ${[...missingPackages].join(' ')}\n(or run scripts/setup/setup-system.sh)\n`
      : '\nEverything bench can run is installed.\n'
  }`;
}
