import { createRequire } from 'node:module';
import type cliProgress from 'cli-progress';
import type { RunEvent } from '../run/run-cells.js';
import { skipLines } from './skip-lines.js';

// the bar's library loads with the first bar, on a terminal: away from one (CI, tests, pipes) no bench command needs it
const barLibrary = () => createRequire(import.meta.url)('cli-progress') as typeof cliProgress;

const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 2 });

/** Away from a terminal (CI logs), a measured run says where it stands this often: a soak of hours is not silent. */
export const LOG_PROGRESS_EVERY_SECONDS = 60;

const clock = (seconds: number) => {
  const s = Math.round(seconds);
  const hms = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  return hms[0]
    ? `${hms[0]}h${String(hms[1]).padStart(2, '0')}m${String(hms[2]).padStart(2, '0')}s`
    : `${hms[1]}m${String(hms[2]).padStart(2, '0')}s`;
};

/**
 * Progress on standard error: a live bar on a terminal, one line per cell elsewhere (CI logs).
 * Reports go to standard output, so `bench run ... > report.md` stays clean. Every line goes through `write`
 * (the run's redaction, for `bench run`).
 */
export function progressPrinter(write: (text: string) => void = (text) => void process.stderr.write(text)) {
  const tty = Boolean(process.stderr.isTTY) && !process.env.CI;
  let options: { durationSeconds?: number; requests?: number; warmupSeconds: number; warmupMaxSeconds?: number } = { warmupSeconds: 0 };
  let bar: cliProgress.SingleBar | undefined;
  let label = '';
  let phase: 'warmup' | 'measure' = 'measure';
  // the last progress line written away from a terminal: when, and the requests counted then
  let logged = { at: 0, requests: 0 };

  const stopBar = () => {
    bar?.stop();
    bar = undefined;
  };

  return (event: RunEvent) => {
    switch (event.type) {
      case 'plan':
        options = event.options;
        write(
          `bench: ${event.options.repeat === 'auto' ? `up to ${event.cells} cell(s) (rounds until decided, at most ${event.options.maxRounds})` : `${event.cells} cell(s)`}: ${event.plan.pairs.map((p) => `${p.scenario.name}/${p.target.name}`).join(', ')} at c=${event.plan.concurrency.join(',')}, engine ${event.engine}\n`,
        );
        for (const line of skipLines(event.plan.skipped, event.options.verbose === true)) write(`bench: ${line}\n`);
        if (event.engineBecause) write(`bench: ${event.engineBecause}\n`);
        if (event.options.journal !== undefined) write(`bench: journal ${event.options.journal}\n`);
        break;
      case 'target-starting':
        if (!tty) write(`bench: starting ${event.target} for ${event.scenario}\n`);
        break;
      case 'step':
        write(`bench: ${event.text}\n`);
        break;
      case 'round-end':
        stopBar();
        write(`bench: round ${event.round}: ${event.decided ? 'decided' : 'undecided'}${event.lines.map((l) => `\n  ${l}`).join('')}\n`);
        break;
      case 'rounds-end': {
        stopBar();
        const why = {
          fixed: 'as --repeat asked',
          decided: 'every comparison decided',
          'max-rounds': 'reached --max-rounds, undecided',
          'max-time': 'another round would pass --max-time, undecided',
          interrupted: 'interrupted',
          failed: 'the run failed',
        }[event.stoppedBecause];
        // a fixed count, a failure and an interruption say themselves; only --repeat auto's own stop needs a line
        if (!['fixed', 'failed', 'interrupted'].includes(event.stoppedBecause)) write(`bench: ${event.rounds} round(s); stopped: ${why}\n`);
        break;
      }
      case 'target-verifying':
        if (!tty) write(`bench: verifying ${event.target} for ${event.scenario}\n`);
        break;
      case 'cell-start': {
        stopBar();
        phase = event.phase;
        const run = event.repeat > 1 ? ` run ${event.repeat}` : '';
        label = `[${event.index}/${event.total}] ${event.scenario} ${event.target} c=${event.concurrency}${run}${phase === 'warmup' ? ' warm-up' : ''}`;
        if (!tty) {
          if (phase === 'measure') write(`bench: ${label} ...\n`);
          logged = { at: 0, requests: 0 };
          break;
        }
        const byCount = phase === 'measure' && options.requests !== undefined;
        // a warm-up lasts until the stack is steady: --warmup-max at most
        const total =
          phase === 'warmup'
            ? Math.max(options.warmupSeconds, options.warmupMaxSeconds ?? 0)
            : byCount
              ? (options.requests ?? 0)
              : (options.durationSeconds ?? 10);
        const { SingleBar, Presets } = barLibrary();
        bar = new SingleBar(
          {
            format: `${label} [{bar}] {value}/{total}${byCount ? ' req' : ' s'} | {requests} req`,
            hideCursor: true,
            stream: process.stderr,
          },
          Presets.shades_classic,
        );
        bar.start(total, 0, { requests: 0 });
        break;
      }
      case 'cell-progress':
        if (!tty && phase === 'measure' && event.progress.elapsedSeconds - logged.at >= LOG_PROGRESS_EVERY_SECONDS) {
          const { elapsedSeconds, requests } = event.progress;
          const of = options.requests === undefined ? ` of ${clock(options.durationSeconds ?? 10)}` : '';
          const recent = (requests - logged.requests) / (elapsedSeconds - logged.at);
          write(
            `bench: ${label}: ${clock(elapsedSeconds)}${of}, ${fmt(requests)} requests, ${fmt(Math.round(recent))} rps in the last ${clock(elapsedSeconds - logged.at)}\n`,
          );
          logged = { at: elapsedSeconds, requests };
        }
        if (bar) {
          const byCount = phase === 'measure' && options.requests !== undefined;
          bar.update(byCount ? event.progress.requests : Math.min(Math.round(event.progress.elapsedSeconds), bar.getTotal()), {
            requests: fmt(event.progress.requests),
          });
        }
        break;
      case 'cell-end': {
        stopBar();
        const r = event.result;
        const summary =
          r.status === 'ok'
            ? `${fmt(r.rps)} rps, p50 ${fmt(r.latency.p50)} ms, p99 ${fmt(r.latency.p99)} ms, ${r.failed} failed, ${r.non2xx} non-2xx`
            : `FAILED: ${r.error}`;
        write(`bench: ${r.scenario} ${r.target} c=${r.concurrency}: ${summary}\n`);
        break;
      }
    }
  };
}
