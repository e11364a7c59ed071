// Loaded into every Node process of a stack that bench profiles (NODE_OPTIONS=--import, set by v8-profiler.ts):
// SIGUSR2 starts V8's sampling profiler, the next SIGUSR2 stops it and writes <dir>/<pid>.cpuprofile. The files it
// writes are how the runner knows this process took the hook: it signals no process that did not.
import { renameSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';
import { isMainThread } from 'node:worker_threads';

const dir = process.env.BENCH_PROFILE_DIR;
const hz = Number(process.env.BENCH_PROFILE_HZ ?? 99);

function writeAtomically(file: string, text: string): void {
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
}

// a worker thread of the app loads this too: the main thread's profiler is the process's
if (dir && isMainThread) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: Math.max(50, Math.round(1_000_000 / hz)) });
  let profiling = false;
  process.on('SIGUSR2', () => {
    if (!profiling) {
      profiling = true;
      session.post('Profiler.start', () => writeAtomically(path.join(dir, `${process.pid}.started`), ''));
      return;
    }
    profiling = false;
    session.post('Profiler.stop', (error, result) => {
      const text = error ? JSON.stringify({ error: error.message }) : JSON.stringify(result.profile);
      writeAtomically(path.join(dir, `${process.pid}.cpuprofile`), text);
    });
  });
  writeAtomically(path.join(dir, `${process.pid}.ready`), '');
}
