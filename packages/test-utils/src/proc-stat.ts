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
