import fs from 'node:fs';
import path from 'node:path';

// What the launcher service (launcher.ts) knows of each worker, from marks the worker's reporter
// leaves in a folder the service made: a worker that died before its reporter heard of its spec
// files (no mark), one that died mid-run (a mark saying it started, never that it ended), and
// whether any worker's run failed (docs/design/webdriverio.md#a-worker-that-died-mid-run).

/**
 * Set by the launcher service: a folder where each worker's reporter leaves a mark once it
 * heard of its spec files, and writes what WebdriverIO said of them when they ended.
 */
export const STARTED_WORKERS_VAR = 'TESTRUN_WDIO_STARTED_WORKERS';

/** A worker's mark: absent (its reporter never heard of its spec files), started, or ended with WebdriverIO's count of failures. */
export type WorkerMark = undefined | { ended: false } | { ended: true; failures: number };

/**
 * The worker's folder and id as the reporter loaded: a spec may empty process.env
 * (docs/design/what-tests-do-to-the-process.md#the-environment-and-the-working-directory),
 * and the end's mark must still be written.
 */
const atLoad = { dir: process.env[STARTED_WORKERS_VAR], cid: process.env.WDIO_WORKER_ID };

/** The reporter's side: at `runner:start` (no count) and at `runner:end` (WebdriverIO's failures). */
export function markWorker(failures?: number): void {
  const dir = process.env[STARTED_WORKERS_VAR] ?? atLoad.dir;
  const cid = process.env.WDIO_WORKER_ID ?? atLoad.cid;
  if (!dir || !cid) return;
  try {
    const ended = failures === undefined ? '' : JSON.stringify({ failures });
    fs.writeFileSync(markFile(dir, cid), ended);
  } catch {}
}

/** The launcher's side: a worker starts (again, on a retry), and has said nothing yet. */
export function clearMark(cid: string): void {
  const dir = process.env[STARTED_WORKERS_VAR];
  if (!dir) return;
  try {
    fs.rmSync(markFile(dir, cid), { force: true });
  } catch {}
}

export function readMark(cid: string): WorkerMark {
  const dir = process.env[STARTED_WORKERS_VAR];
  if (!dir) return undefined;
  return markOf(markFile(dir, cid));
}

/** Every worker's mark, for the launcher's verdict on the whole `wdio run`. */
export function readMarks(): WorkerMark[] {
  const dir = process.env[STARTED_WORKERS_VAR];
  if (!dir) return [];
  try {
    return fs.readdirSync(dir).map((name) => markOf(path.join(dir, name)));
  } catch {
    return [];
  }
}

/**
 * What a worker that ended leaves the launcher to say (a pure decision, on the worker's last
 * attempt): nothing when it passed, or its reporter ended; that its spec files never ran when
 * its reporter never heard of them (its session did not start); that it died mid-run when its
 * reporter heard of them and never of their end (a crash, an out-of-memory kill,
 * `process.exit` in a spec).
 */
export function workerEnd(
  mark: WorkerMark,
  exitCode: number,
  retries: number,
): 'reported' | 'never-started' | 'died' {
  if (exitCode === 0 || retries > 0 || mark?.ended) return 'reported';
  return mark === undefined ? 'never-started' : 'died';
}

function markOf(file: string): WorkerMark {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  if (text === '') return { ended: false };
  try {
    const failures = (JSON.parse(text) as { failures?: unknown }).failures;
    return { ended: true, failures: typeof failures === 'number' ? failures : 0 };
  } catch {
    return { ended: false };
  }
}

function markFile(dir: string, cid: string): string {
  return path.join(dir, String(cid).replace(/[^\w-]/g, '_'));
}
