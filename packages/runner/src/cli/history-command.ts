import path from 'node:path';
import type { Command } from 'commander';
import { assertWritableFile, errors, parseFailIf } from '@bench/core';
import {
  appendRunToHistory,
  brokenHistoryLimits,
  DEFAULT_HISTORY_METRICS,
  findHistoryChanges,
  groupSeries,
  historyFilePath,
  readHistory,
  type HistoryMetric,
} from '@bench/history';
import {
  commitRange,
  damagedLinesNote,
  formatPValue,
  outputFormat,
  renderHistoryCheck,
  renderHistoryShow,
  writeFileAtomically,
} from '@bench/reporters';
import { loadConfig } from '../config/load-config.js';
import { addCommandOptions } from '../options/commander-options.js';
import { readResultsFile } from '../reporters/results-file.js';

interface HistoryFlags {
  /** A file; `--history` with none (as `bench run` takes it) is the same as no --history. */
  readonly history?: string | boolean;
  readonly config?: string;
}

/** --history, else the config's `defaults.history`, else bench-history.jsonl beside the config (or here); and where git is asked. */
async function historyLocation(flags: HistoryFlags): Promise<{ file: string; dir: string }> {
  const config = await loadConfig(flags.config !== undefined ? { file: flags.config } : {});
  const dir = config?.dir ?? process.cwd();
  if (typeof flags.history === 'string') return { file: path.resolve(flags.history), dir };
  const configured = config?.config.defaults?.history;
  return { file: historyFilePath(configured === undefined || configured === false ? true : configured, dir)!, dir };
}

async function loadSeries(flags: HistoryFlags) {
  const { file } = await historyLocation(flags);
  const history = await readHistory(file);
  process.stderr.write(damagedLinesNote(history));
  return { history, series: groupSeries(history.entries) };
}

/** Adds `bench history add|check|show|report`: a history of runs kept in the app's repo, and the change points in it. */
export function addHistoryCommand(program: Command): void {
  // made with program.command() so that they inherit its error handling (exit codes, the "bench:" prefix)
  const history = program
    .command('history')
    .description('keep every run in a history file (JSON Lines) and find where each series changed (E-Divisive means with a t-test)');

  // each one's flags from the table (options/command-table.ts)
  addCommandOptions(history.command('add'), 'history add')
    .description('append every cell of a results file to the history, with the commit, branch and commit time git reports here')
    .argument('<results>', 'results file (written by --reporter json --out)')
    .action(
      async (
        results: string,
        flags: HistoryFlags & { commit?: string; branch?: string; commitTime?: string; partial?: boolean; profiles?: boolean },
      ) => {
        const read = readResultsFile(results);
        if (!read.complete && !flags.partial)
          throw errors.resultsFile(results, 'it holds a run that did not finish; add --partial to keep its finished cells anyway');
        // a cell cut short by the end of the run measured fewer seconds than its peers: it is never history
        const doc = { ...read, results: read.results.filter((r) => !r.interrupted) };
        const { file, dir } = await historyLocation(flags);
        const given = {
          ...(flags.commit !== undefined ? { commit: flags.commit } : {}),
          ...(flags.branch !== undefined ? { branch: flags.branch } : {}),
          ...(flags.commitTime !== undefined ? { commitTime: flags.commitTime } : {}),
        };
        if (flags.profiles && !doc.results.some((r) => r.profile))
          throw errors.resultsFile(results, 'no cell of it was profiled; run with --profile, or leave out --profiles');
        const added = await appendRunToHistory(doc, file, dir, given, flags.profiles === true);
        process.stderr.write(`bench: ${added} ${added === 1 ? 'cell' : 'cells'} appended to ${file}\n`);
      },
    );

  addCommandOptions(history.command('check'), 'history check')
    .description('find the change points of every series; exit 1 when the newest one is a regression beyond --fail-if')
    .action(async (flags: HistoryFlags & { failIf?: string; maxPValue: number }) => {
      const limits = flags.failIf !== undefined ? parseFailIf(flags.failIf) : [];
      const { series } = await loadSeries(flags);
      const metrics = [...new Set<HistoryMetric>([...DEFAULT_HISTORY_METRICS, ...limits.map((l) => l.metric)])];
      const found = findHistoryChanges(series, metrics, { maxPValue: flags.maxPValue });
      const broken = brokenHistoryLimits(found, limits);
      process.stdout.write(renderHistoryCheck(series, found, broken));
      if (broken.length > 0) {
        const first = broken[0]!;
        throw errors.regression(
          `${broken.length} series regressed beyond --fail-if at their newest change point (first: ${first.series.label} ${first.limit}: ${first.change.changePercent.toFixed(1)}% between ${commitRange(first.change)}, p ${formatPValue(first.change.pValue)})`,
        );
      }
    });

  addCommandOptions(history.command('show'), 'history show')
    .description('the last runs of each series as a markdown table, with an rps sparkline and the change points marked')
    .action(async (flags: HistoryFlags & { last: number; maxPValue: number }) => {
      const { series } = await loadSeries(flags);
      const found = findHistoryChanges(series, DEFAULT_HISTORY_METRICS, { maxPValue: flags.maxPValue });
      process.stdout.write(renderHistoryShow(series, found, flags.last));
    });

  addCommandOptions(history.command('report'), 'history report')
    .description(
      'the whole history in one format: by default one self-contained HTML page, a trend chart per series, change points marked, each run linked to its commit',
    )
    .action(async (flags: HistoryFlags & { format: string; out?: string; maxPValue: number }) => {
      const render = outputFormat(flags.format)?.history;
      if (!render) throw errors.usage(`--format ${flags.format} cannot show a history`);
      // a page is no text for a terminal
      if (flags.format === 'html' && flags.out === undefined)
        throw errors.usage('the html history is a page: give -o FILE, e.g. -o history.html');
      if (flags.out !== undefined) assertWritableFile(flags.out);
      const { history, series } = await loadSeries(flags);
      const changes = findHistoryChanges(series, DEFAULT_HISTORY_METRICS, { maxPValue: flags.maxPValue });
      const text = render({ history, series, changes });
      if (flags.out === undefined) return void process.stdout.write(text);
      await writeFileAtomically(flags.out, text);
      process.stderr.write(`bench: history ${flags.format === 'html' ? 'page' : 'report'} written to ${flags.out}\n`);
    });
}
