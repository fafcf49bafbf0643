import fs from 'node:fs';

/**
 * A process's `/proc/<pid>/stat` (Linux) from field 3 on: state, parent pid, process group,
 * … (`proc(5)` numbers them from 1, so field N is at N - 3). The fields follow the command's
 * last `)`, since the command itself may hold spaces and parentheses. Undefined where there is
 * no such process, or no /proc.
 */
export function procStat(pid: number | 'self'): string[] | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/**
 * Every process now alive that descends from `pid`, parents before their children (Linux's
 * /proc; empty elsewhere). Ending a driver alone orphans the browser it started: end them all.
 */
export function descendantsOf(pid: number): number[] {
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const parent = Number(procStat(Number(entry))?.[1]);
    if (!Number.isInteger(parent)) continue;
    children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
  }
  const found: number[] = [];
  for (let queue = [pid]; queue.length > 0; ) {
    const next = queue.flatMap((parent) => children.get(parent) ?? []);
    found.push(...next);
    queue = next;
  }
  return found;
}

/**
 * The descendants of `pid` now alive (descendantsOf), each with its start time, and a way to
 * end those still alive later: a framework whose main process a test signals alone leaves its
 * workers running (a cancelled CI job's signal would reach them too). A pid whose process has
 * since ended and been reused is left alone.
 */
export function captureDescendants(pid: number): { pids: number[]; end(): void } {
  const captured = new Map(descendantsOf(pid).map((entry) => [entry, startTime(entry)]));
  return { pids: [...captured.keys()], end: () => endStillRunning(captured) };
}

/** When `pid` started (clock ticks since boot), which tells it from a later process given the same pid. */
function startTime(pid: number): string | undefined {
  return procStat(pid)?.[19];
}

/** SIGKILLs each pid still the process that had it when seen (the same start time). */
function endStillRunning(seen: ReadonlyMap<number, string | undefined>): void {
  for (const [entry, start] of seen) {
    if (start === undefined || startTime(entry) !== start) continue;
    try {
      process.kill(entry, 'SIGKILL');
    } catch {
      // Ended meanwhile.
    }
  }
}

/**
 * Every descendant `pid` has while it runs, looked for every `intervalMs`, and a way to end
 * those still alive once it has ended: a program that starts a browser and exits without
 * ending it (TestCafe when it could not connect to the Chromium it started) leaves it orphaned,
 * where descendantsOf no longer finds it. A pid since reused is left alone.
 */
export function followDescendants(pid: number, intervalMs = 500): { end(): void } {
  const seen = new Map<number, string | undefined>();
  const look = () => {
    for (const entry of descendantsOf(pid)) if (!seen.has(entry)) seen.set(entry, startTime(entry));
  };
  look();
  const timer = setInterval(look, intervalMs);
  timer.unref();
  return {
    end: () => {
      clearInterval(timer);
      endStillRunning(seen);
    },
  };
}
