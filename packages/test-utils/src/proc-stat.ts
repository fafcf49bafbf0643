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
