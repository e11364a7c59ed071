import { execFile } from 'node:child_process';
import { readlinkSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { findBinary, isExecutable } from '../probe/find-binary.js';
import { addStack, type FoldedStacks } from './folded-stacks.js';
import type { ProcessProfiler } from './process-profiler.js';

const run = promisify(execFile);
const RECORDING = 'bench-profile';

/** A JDK tool beside the JVM's own java (the JDK that runs the target), else on PATH. */
function jdkTool(pid: number, tool: string): string | undefined {
  try {
    const beside = path.join(path.dirname(readlinkSync(`/proc/${pid}/exe`)), tool);
    if (isExecutable(beside)) return beside;
  } catch {
    // the process is gone or not ours to read
  }
  return findBinary(tool);
}

// only the execution sampler, at the asked rate: the "profile" preset also records allocations and locks
const settingsFile = (hz: number): string => `<?xml version="1.0" encoding="UTF-8"?>
<configuration version="2.0" label="bench">
  <event name="jdk.ExecutionSample"><setting name="enabled">true</setting><setting name="period">${Math.max(1, Math.round(1000 / hz))} ms</setting></event>
  <event name="jdk.NativeMethodSample"><setting name="enabled">false</setting></event>
</configuration>
`;

interface JfrFrame {
  method?: { name?: string; type?: { name?: string } };
}

/**
 * The frames the Flight Recorder keeps of a stack (its default, 64, cuts a servlet container's deeper stacks): set
 * in a JVM before its first recording (a JVM keeps the depth its recorder started with).
 */
export const JFR_STACK_DEPTH = 256;

/** The root frame under which a stack the Flight Recorder cut short is drawn: its outermost frames are lost. */
export const TRUNCATED_JFR_STACK = '[truncated stack]';

/**
 * `jfr print --json` of execution samples as folded stacks (frames come leaf first), those in [from, to] (epoch ms)
 * when given; a stack the recorder cut short goes under TRUNCATED_JFR_STACK. Returns the samples kept and how many of
 * them were cut.
 */
export function foldJfrSamples(
  json: string,
  stacks: FoldedStacks,
  window?: { from: number; to: number },
): { samples: number; truncated: number } {
  const parsed = JSON.parse(json) as {
    recording?: { events?: { values?: { startTime?: string; stackTrace?: { truncated?: boolean; frames?: JfrFrame[] } } }[] };
  };
  const counted = { samples: 0, truncated: 0 };
  for (const event of parsed.recording?.events ?? []) {
    const at = Date.parse(event.values?.startTime ?? '');
    if (window && Number.isFinite(at) && (at < window.from || at > window.to)) continue;
    const trace = event.values?.stackTrace;
    const names = (trace?.frames ?? []).map(
      (frame) => `${(frame.method?.type?.name ?? '?').replaceAll('/', '.')}.${frame.method?.name ?? '?'}`,
    );
    names.reverse();
    counted.samples++;
    if (trace?.truncated) counted.truncated++;
    addStack(stacks, trace?.truncated ? [TRUNCATED_JFR_STACK, ...names] : names);
  }
  return counted;
}

/** The note on the samples whose stacks the Flight Recorder cut short; undefined when none was. */
export function truncatedJfrNote(counted: { samples: number; truncated: number }): string | undefined {
  if (counted.truncated === 0) return undefined;
  return `${counted.truncated} of ${counted.samples} Java samples had stacks deeper than the Flight Recorder kept (${JFR_STACK_DEPTH} frames, or 64 in a JVM that recorded before bench set it): their outermost frames are lost, and they are drawn under ${TRUNCATED_JFR_STACK}`;
}

/**
 * The JDK's Flight Recorder, started in each JVM with jcmd before the warm-up (a JVM recompiles its hot code once a
 * recording starts: at -c 50 Tomcat took 6 s to come back to its rate) and read for the measured window only.
 */
export const jfrProfiler: ProcessProfiler = {
  name: 'jfr',
  async prepare(pids, { dir, hz }) {
    const settings = path.join(dir, 'bench.jfc');
    writeFileSync(settings, settingsFile(hz));
    const started: number[] = [];
    const notes: string[] = [];
    for (const pid of pids) {
      const jcmd = jdkTool(pid, 'jcmd');
      if (!jcmd) {
        notes.push(`Java process ${pid}: no jcmd beside its java or on PATH (install the JDK, not only the JRE)`);
        continue;
      }
      try {
        // deeper stacks than the recorder's default keeps (an older JDK without the option records at its default)
        await run(jcmd, [String(pid), 'JFR.configure', `stackdepth=${JFR_STACK_DEPTH}`]).catch(() => undefined);
        await run(jcmd, [String(pid), 'JFR.start', `name=${RECORDING}`, `settings=${settings}`]);
        started.push(pid);
      } catch (error) {
        notes.push(`Java process ${pid}: jcmd JFR.start failed: ${firstLine(error)}`);
      }
    }
    const stopRecording = (pid: number, file?: string) =>
      run(jdkTool(pid, 'jcmd') ?? 'jcmd', [String(pid), 'JFR.stop', `name=${RECORDING}`, ...(file ? [`filename=${file}`] : [])]);
    return {
      cancel: async () => {
        for (const pid of started) await stopRecording(pid).catch(() => undefined);
      },
      start: () => {
        const from = Date.now();
        return Promise.resolve({
          async stop() {
            const to = Date.now();
            const stacks: FoldedStacks = new Map();
            const counted = { samples: 0, truncated: 0 };
            for (const pid of started) {
              const file = path.join(dir, `${pid}.jfr`);
              try {
                await stopRecording(pid, file);
                const jfr = jdkTool(pid, 'jfr') ?? 'jfr';
                const depth = String(JFR_STACK_DEPTH);
                const { stdout } = await run(jfr, ['print', '--json', '--stack-depth', depth, '--events', 'jdk.ExecutionSample', file], {
                  maxBuffer: 1024 * 1024 * 1024,
                });
                const one = foldJfrSamples(stdout, stacks, { from, to });
                counted.samples += one.samples;
                counted.truncated += one.truncated;
                rmSync(file, { force: true });
              } catch (error) {
                notes.push(`Java process ${pid}: its recording could not be read: ${firstLine(error)}`);
              }
            }
            const truncated = truncatedJfrNote(counted);
            return { stacks, notes: truncated ? [...notes, truncated] : notes };
          },
        });
      },
    };
  },
};

const firstLine = (error: unknown): string =>
  (error instanceof Error ? (error as { stderr?: string }).stderr || error.message : String(error)).trim().split('\n')[0] ?? '';
