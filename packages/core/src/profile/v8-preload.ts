// Loaded into every Node process of a stack that bench profiles (NODE_OPTIONS=--import, set by v8-profiler.ts):
// SIGUSR2 starts V8's sampling profiler in the process's main thread and in each of its worker threads, the next
// SIGUSR2 stops them and writes <dir>/<pid>.cpuprofile. The files it writes are how the runner knows this process
// took the hook: it signals no process that did not.
import { renameSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';
import { isMainThread } from 'node:worker_threads';

const dir = process.env.BENCH_PROFILE_DIR;
const hz = Number(process.env.BENCH_PROFILE_HZ ?? 99);
const interval = Math.max(50, Math.round(1_000_000 / hz));
// a worker that does not answer within this is written down as lost, not waited for
const WORKER_TIMEOUT_MS = 5_000;

function writeAtomically(file: string, text: string): void {
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
}

/** One worker thread, reached through the main thread's session (the inspector's NodeWorker domain). */
interface Worker {
  readonly url: string;
  readonly replies: Map<number, (reply: { result?: unknown; error?: { message?: string } }) => void>;
  started?: Promise<unknown>;
  gone?: boolean;
}

// A worker thread of the app loads this hook too (unless its own env drops NODE_OPTIONS): the main thread profiles
// every worker through its own session, so a worker's copy of the hook does nothing.
if (dir && isMainThread) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval });
  const workers = new Map<string, Worker>();
  let nextId = 1;
  let profiling = false;

  const toWorker = (sessionId: string, method: string, params: object = {}): Promise<unknown> => {
    const worker = workers.get(sessionId);
    if (!worker || worker.gone) return Promise.reject(new Error('it ended'));
    const id = nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer within ${WORKER_TIMEOUT_MS / 1000} s`)), WORKER_TIMEOUT_MS);
      worker.replies.set(id, (reply) => {
        clearTimeout(timer);
        if (reply.error) reject(new Error(reply.error.message ?? 'error'));
        else resolve(reply.result);
      });
      session.post('NodeWorker.sendMessageToWorker', { sessionId, message: JSON.stringify({ id, method, params }) });
    });
  };
  const startWorker = (sessionId: string, worker: Worker) => {
    worker.started = toWorker(sessionId, 'Profiler.enable')
      .then(() => toWorker(sessionId, 'Profiler.setSamplingInterval', { interval }))
      .then(() => toWorker(sessionId, 'Profiler.start'));
    worker.started.catch(() => undefined);
  };

  // a worker alive when the profile starts, or started during it, is attached and profiled until the stop
  session.on('NodeWorker.attachedToWorker', ({ params }) => {
    const worker: Worker = { url: params.workerInfo.url, replies: new Map() };
    workers.set(params.sessionId, worker);
    if (profiling) startWorker(params.sessionId, worker);
  });
  session.on('NodeWorker.detachedFromWorker', ({ params }) => {
    const worker = workers.get(params.sessionId);
    if (!worker) return;
    worker.gone = true;
    for (const reply of worker.replies.values()) reply({ error: { message: 'it ended' } });
    worker.replies.clear();
  });
  session.on('NodeWorker.receivedMessageFromWorker', ({ params }) => {
    const message = JSON.parse(params.message) as { id?: number; result?: unknown; error?: { message?: string } };
    const worker = workers.get(params.sessionId);
    const reply = message.id === undefined ? undefined : worker?.replies.get(message.id);
    if (!reply || message.id === undefined) return;
    worker?.replies.delete(message.id);
    reply(message);
  });

  const stopWorker = async (sessionId: string, worker: Worker) => {
    try {
      await worker.started;
      const { profile } = (await toWorker(sessionId, 'Profiler.stop')) as { profile: unknown };
      return { url: worker.url, profile };
    } catch (error) {
      // (not core's messageOf: loaded into the stack's own processes, this file imports nothing of bench's)
      return { url: worker.url, error: error instanceof Error ? error.message : String(error) };
    }
  };

  process.on('SIGUSR2', () => {
    if (!profiling) {
      profiling = true;
      session.post('NodeWorker.enable', { waitForDebuggerOnStart: false });
      session.post('Profiler.start', () => writeAtomically(path.join(dir, `${process.pid}.started`), ''));
      return;
    }
    profiling = false;
    const threads = Promise.all([...workers].map(([sessionId, worker]) => stopWorker(sessionId, worker)));
    session.post('Profiler.stop', (error, result) => {
      void threads.then((workerProfiles) => {
        workers.clear();
        session.post('NodeWorker.disable');
        const text = JSON.stringify(error ? { error: error.message } : { profile: result.profile, workers: workerProfiles });
        writeAtomically(path.join(dir, `${process.pid}.cpuprofile`), text);
      });
    });
  });
  writeAtomically(path.join(dir, `${process.pid}.ready`), '');
}
