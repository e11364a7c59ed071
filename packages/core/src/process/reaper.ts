import { spawn, type ChildProcess } from 'node:child_process';
import { packageFile } from '../package-file.js';

const reaperEntry = packageFile(import.meta.url, 'dist', 'process', 'reaper-main.js');
let reaper: ChildProcess | undefined;

// Started on first use, in a session of its own (so a signal to the runner's group does not reach
// it), holding the read end of a pipe whose write end only this process has. Unref'd: it never
// keeps the runner alive.
function watcher(): ChildProcess | undefined {
  if (reaper || process.platform !== 'linux') return reaper;
  reaper = spawn(process.execPath, [reaperEntry], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
  reaper.on('error', () => {});
  reaper.stdin?.on('error', () => {});
  reaper.unref();
  (reaper.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return reaper;
}

// libuv writes to an idle pipe at once, so a record is in the pipe before the next line of the runner runs.
function tell(line: string): void {
  watcher()?.stdin?.write(`${line}\n`);
}

// Forgetting needs no watcher when none was started.
function tellIfWatching(line: string): void {
  reaper?.stdin?.write(`${line}\n`);
}

/** Records a process group the watcher must stop if the runner dies before it does. */
export const reaperTrackGroup = (pgid: number): void => tell(`group ${pgid}`);
export const reaperForgetGroup = (pgid: number): void => tellIfWatching(`ungroup ${pgid}`);
/** Records a private dir the watcher must remove if the runner dies before it does. */
export const reaperTrackDir = (dir: string): void => tell(`dir ${dir}`);
export const reaperForgetDir = (dir: string): void => tellIfWatching(`undir ${dir}`);

/** The watcher's pid, when one was started (for tests and diagnostics). */
export const reaperPid = (): number | undefined => reaper?.pid;
