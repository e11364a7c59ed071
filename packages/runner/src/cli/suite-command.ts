import { errors, parseNameList, type DatabaseChoice } from '@bench/core';
import { loadProject } from '../project/project.js';
import type { reporterSpecCollector } from '../reporters/reporter-spec.js';
import { loadReporters, parseReporterOptions } from '../reporters/load-reporters.js';
import { findSuite, httpsClients, loadSuites } from '@bench/suites';
import { runSuite } from '../suites/run-suite.js';
import { chosenEngineName } from '../engine-choice/engine-candidates.js';
import { formatTable } from './format-table.js';
import { interruptSignal } from './interrupt.js';
import { progressPrinter } from './progress.js';
import { flagsOverConfig, openHosts, type HostOptions } from '../run/run-hosts.js';

/** `bench suite list`: each suite, what it needs, and what of it this machine has. */
async function listSuites(configFile?: string): Promise<void> {
  const project = await loadProject(configFile !== undefined ? { configFile } : {});
  const rows: string[][] = [];
  for (const { definition } of loadSuites()) {
    const tfb = definition.techempower;
    const targets = tfb ? Object.keys(tfb.entries) : [...new Set(definition.runs.flatMap((r) => r.targets))];
    const missing: string[] = [];
    for (const name of targets) {
      const target = project.targets.find((t) => t.name === name);
      const availability = target ? await target.available() : { ok: false };
      if (!availability.ok) missing.push(name);
    }
    const scenarios = tfb ? tfb.tests.map((t) => t.scenario) : [...new Set(definition.runs.flatMap((r) => r.scenarios))];
    const engines = tfb ? [tfb.engine] : [...new Set(definition.runs.map((r) => chosenEngineName(r.options, project.engines)))];
    rows.push([
      definition.name,
      definition.article,
      definition.title,
      definition.kind === 'https-clients'
        ? `${httpsClients.map((c) => c.name).join(', ')} clients`
        : `${targets.join(',')} on ${scenarios.join(',')} (${engines.join(',')})`,
      definition.kind === 'https-clients'
        ? 'see bench doctor'
        : missing.length === 0
          ? 'yes'
          : missing.length === targets.length
            ? `no: ${missing.join(', ')} missing`
            : `partly: ${missing.join(', ')} missing`,
    ]);
  }
  process.stdout.write(`${formatTable(['suite', 'article', 'title', 'needs', 'here'], rows)}\n`);
}

/** What `bench suite` takes on its command line. */
export type SuiteFlags = {
  scale: number;
  /** bench run's --repeat: a suite takes a number of rounds, not auto. */
  repeat?: number | 'auto';
  targets?: string;
  engine?: string;
  db?: DatabaseChoice;
  config?: string;
  reporterOption?: string[];
} & HostOptions;

/** `bench suite <name>`: the article's experiment on today's stacks, its tables with the published figures beside ours. */
export async function suiteCommand(name: string, flags: SuiteFlags, collector: ReturnType<typeof reporterSpecCollector>): Promise<void> {
  if (flags.repeat === 'auto') throw errors.badNumber('--repeat', 'auto', 'a whole number greater than 0');
  if (name === 'list') return listSuites(flags.config);
  const suite = findSuite(name);
  const loaded = await loadProject(flags.config !== undefined ? { configFile: flags.config } : {});
  const reporters = await loadReporters(collector.specs([{ name: 'suite' }]), parseReporterOptions(flags.reporterOption));
  const hosts = await openHosts(flagsOverConfig(flags, loaded));
  const project = hosts ? { ...loaded, targets: hosts.targets(loaded.targets) } : loaded;
  const interrupt = interruptSignal();
  try {
    await runSuite(project, {
      ...(hosts ? { hosts } : {}),
      suite,
      scale: flags.scale,
      ...(flags.repeat !== undefined ? { repeat: flags.repeat } : {}),
      ...(flags.targets !== undefined ? { targets: parseNameList([flags.targets]) } : {}),
      ...(flags.engine !== undefined ? { engine: flags.engine } : {}),
      ...(flags.db !== undefined ? { db: flags.db } : {}),
      reporters,
      onEvent: progressPrinter(),
      signal: interrupt.signal,
      command: ['bench', ...process.argv.slice(2)].join(' '),
    });
  } finally {
    interrupt.dispose();
    await hosts?.close();
  }
}
