import fs from 'node:fs';
import os from 'node:os';
import { sha256Hex } from '../sha256.js';

// Whether the process that holds a spool file (the reporter writing it, the replay that
// claimed it) is still running. A pid alone cannot say: containers reuse pids (every
// container's first process is pid 1), so the pid of a killed replay is soon some other
// live process, often the next replay itself. A process is told apart from a later one
// with the same pid by its start time, and a pid only means something on the same
// machine, in the same pid namespace. See docs/design/spool-and-replay.md#who-holds-a-file.

/** The process holding a spool file, as recorded in the file's run record or claim name. */
export interface SpoolOwner {
  pid: number;
  /** Its start time in clock ticks since boot (`/proc/<pid>/stat`); undefined where /proc does not show it. */
  start: string | undefined;
  /**
   * A hash of host name, boot id and pid namespace: owners with our `machine` run beside
   * us, so their pid and start time can be looked up here.
   */
  machine: string;
}

/** `elsewhere`: on another machine, in another container or from before a reboot: we cannot see it. */
export type OwnerState = 'alive' | 'dead' | 'elsewhere';

let self: SpoolOwner | undefined;

/** This process as a spool owner. */
export function thisProcess(): SpoolOwner {
  self ??= {
    pid: process.pid,
    start: procShowsOurPids() ? startTime('self') : undefined,
    machine: machineId(),
  };
  return self;
}

export function ownerState(owner: SpoolOwner): OwnerState {
  const here = thisProcess();
  if (owner.machine !== here.machine) return 'elsewhere';
  if (owner.start !== undefined && here.start !== undefined) {
    return startTime(owner.pid) === owner.start ? 'alive' : 'dead';
  }
  return isRunning(owner.pid) ? 'alive' : 'dead';
}

/**
 * For files of versions that recorded only a pid: this version never writes such a file,
 * so one with our own pid is not ours, whatever `kill(pid, 0)` says.
 */
export function pidOnlyOwnerState(pid: number): OwnerState {
  return pid !== process.pid && isRunning(pid) ? 'alive' : 'dead';
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Field 22 of `/proc/<pid>/stat`; undefined when there is no such process or it is a
 * zombie (killed, not yet reaped: it holds nothing any more).
 */
function startTime(pid: number | 'self'): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields 3 onwards follow the command name, which may itself hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[0] === 'Z' || fields[0] === 'X' ? undefined : fields[19];
  } catch {
    return undefined;
  }
}

/** A /proc mounted for another pid namespace (`unshare --pid` without its own /proc) shows other processes under our pids. */
function procShowsOurPids(): boolean {
  try {
    return fs.readlinkSync('/proc/self') === String(process.pid);
  } catch {
    return false;
  }
}

function machineId(): string {
  const parts = [
    os.hostname(),
    read(() => fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()),
  ];
  parts.push(read(() => fs.readlinkSync('/proc/self/ns/pid')));
  return sha256Hex(parts.join('\n')).slice(0, 12);
}

function read(get: () => string): string {
  try {
    return get();
  } catch {
    return '';
  }
}
