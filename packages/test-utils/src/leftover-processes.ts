// Vitest's globalSetup for every test project (vitest.config.ts, which names this file): nothing the suite started
// outlives it. Every process a test starts inherits a mark in its environment (set here, in
// Vitest's main process, before the workers start; test-utils' cleanEnv keeps it), and so do
// theirs: a browser its driver started, a PostgreSQL pg_ctl started. When Vitest's process
// exits (its workers are gone by then), any process still carrying the mark is named on
// stderr, ended, and the run fails: a test left it behind (an orphaned headless Chromium
// piled up on CI after every run so). Linux only (/proc); elsewhere nothing is checked.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { procStat } from './proc-stat.js';

export const MARK = 'TEST_SUITE_PROCESS_MARK';
/** How long processes on their way out (a browser whose driver just ended) get to go. */
const GRACE_MS = 5_000;

export interface Leftover {
  pid: number;
  command: string;
  cwd: string;
}

/**
 * The processes but this one whose environment holds `MARK=mark`, leaving out the children of
 * `parent` (Vitest's main process: Vite's esbuild service, Vitest's workers; a test's
 * processes are its worker's descendants).
 */
export function processesMarked(mark: string, parent?: number): Leftover[] {
  if (!fs.existsSync('/proc/self/environ')) return [];
  const needle = `${MARK}=${mark}`;
  const found: Leftover[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const environ = fs.readFileSync(`/proc/${entry}/environ`, 'latin1');
      if (!environ.split('\0').includes(needle)) continue;
      if (parent !== undefined && Number(procStat(Number(entry))?.[1]) === parent) continue;
      const command = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim();
      let cwd = '?';
      try {
        cwd = fs.readlinkSync(`/proc/${entry}/cwd`);
      } catch {
        // Gone, or not ours to read.
      }
      found.push({ pid: Number(entry), command, cwd });
    } catch {
      // Gone meanwhile, a zombie, or another user's.
    }
  }
  return found;
}

/** Waits up to `graceMs` for the marked processes to end; those still there are ended and answered. */
export function endLeftovers(mark: string, graceMs = GRACE_MS, parent?: number): Leftover[] {
  const deadline = Date.now() + graceMs;
  let left = processesMarked(mark, parent);
  const pause = new Int32Array(new SharedArrayBuffer(4));
  while (left.length > 0 && Date.now() < deadline) {
    Atomics.wait(pause, 0, 0, 100);
    left = processesMarked(mark, parent);
  }
  for (const { pid } of left) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Ended meanwhile.
    }
  }
  return left;
}

export default function setup(): void {
  // One mark for the whole run: each project runs this file.
  if (process.env[MARK]) return;
  const mark = randomUUID();
  process.env[MARK] = mark;
  process.once('exit', () => {
    const left = endLeftovers(mark, GRACE_MS, process.pid);
    if (left.length === 0) return;
    const lines = left.map(({ pid, command, cwd }) => `  ${pid} ${command.slice(0, 160)}\n      in ${cwd}`);
    process.stderr.write(
      `\nThe suite left ${left.length} process${left.length === 1 ? '' : 'es'} running (now ended); the test that started ${left.length === 1 ? 'it' : 'them'} must end ${left.length === 1 ? 'it' : 'them'}:\n${lines.join('\n')}\n`,
    );
    process.exitCode = 1;
  });
}
