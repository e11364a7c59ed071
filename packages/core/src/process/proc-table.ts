import { readdirSync, readFileSync } from 'node:fs';

/** One line of the process table, read from /proc/<pid>/stat. */
export interface ProcEntry {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
  readonly state: string;
  readonly comm: string;
  /** user + system CPU time in clock ticks. */
  readonly cpuTicks: number;
  /** user + system CPU time of its children that ended and were waited for, in clock ticks. */
  readonly childTicks: number;
  readonly rssPages: number;
}

function parseStat(text: string): ProcEntry | undefined {
  // comm is in parentheses and may contain spaces: split after the last ')'.
  const close = text.lastIndexOf(')');
  if (close < 0) return undefined;
  const pid = Number(text.slice(0, text.indexOf(' ')));
  const comm = text.slice(text.indexOf('(') + 1, close);
  const fields = text.slice(close + 2).split(' ');
  // fields[0] is field 3 (state) of proc(5).
  return {
    pid,
    comm,
    state: fields[0] ?? '?',
    ppid: Number(fields[1]),
    pgid: Number(fields[2]),
    cpuTicks: Number(fields[11]) + Number(fields[12]),
    childTicks: Number(fields[13]) + Number(fields[14]),
    rssPages: Number(fields[21]),
  };
}

/** Every live (non-zombie) process on the machine. */
export function readProcessTable(): ProcEntry[] {
  const entries: ProcEntry[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const entry = parseStat(readFileSync(`/proc/${name}/stat`, 'utf8'));
      if (entry && entry.state !== 'Z' && entry.state !== 'X') entries.push(entry);
    } catch {
      // the process ended while we were reading
    }
  }
  return entries;
}

/** A process's start time (clock ticks since boot), which with its pid names it uniquely; undefined when it is gone. */
export function processStartTime(pid: number): number | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 of proc(5); starttime is field 22; a zombie is as good as gone
    if (fields[0] === 'Z' || fields[0] === 'X') return undefined;
    return Number(fields[19]);
  } catch {
    return undefined;
  }
}

/** Each thread's user + system CPU time (clock ticks) of these processes, by thread id; threads that end while read are left out. */
export function readThreadTicks(pids: readonly number[]): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const pid of pids) {
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      try {
        const entry = parseStat(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8'));
        if (entry) ticks.set(Number(tid), entry.cpuTicks);
      } catch {
        // the thread ended while we were reading
      }
    }
  }
  return ticks;
}

/** Live members of a process group. */
export function listGroupMembers(pgid: number): ProcEntry[] {
  return readProcessTable().filter((entry) => entry.pgid === pgid);
}
