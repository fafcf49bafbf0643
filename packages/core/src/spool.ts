import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Batch } from './deliver-batch.js';
import { TestrunError } from './errors.js';
import type { TestResult } from './types.js';

// The spool: undelivered work, one ndjson file per session, for `testrun replay`. The
// format and the rules that let reporters and replays share a directory safely are in
// docs/design.md ("The spool").
//
//   <stamp>-<id>.ndjson.open     being written by a live reporter: replay leaves it alone
//   <stamp>-<id>.ndjson          closed: ready for replay
//   <stamp>-<id>.ndjson.<pid>.replaying   claimed by the replay with that pid
//
// Every step from one name to the next is a rename, which is atomic, so a file is only
// ever in one hand. A file whose writer or replayer died is taken over by the next replay.

/** First line of a spool file: which run its batches belong to. Never holds the API key. */
export interface SpoolRunRecord {
  type: 'run';
  /** The run's id, or null when it was never created (replay creates it). */
  runId: string | null;
  run: RunPayload;
  /** The key create-run was sent with, so a replayed create is not a second run. */
  idempotencyKey: string;
  /** Where this service's create-run answer keeps the id, when the reporter was told. */
  runIdPath?: string | undefined;
  baseUrl: string;
  createdAt: string;
  /** The writing process, so a replay can tell an abandoned `.open` file from a live one. */
  pid?: number;
  host?: string;
}

export interface SpoolBatchRecord {
  type: 'batch';
  idempotencyKey: string;
  results: TestResult[];
}

export interface RunPayload {
  project: string;
  framework: string;
  tags: string[];
}

const OPEN = '.open';
const CLOSED = '.ndjson';
const CLAIMED = /^(.+\.ndjson)\.(\d+)\.replaying$/;
/** An open file from another host is taken over once it has not changed for this long. */
const FOREIGN_OPEN_FILE_AGE_MS = 24 * 60 * 60_000;

/**
 * Writes one session's undelivered work. Writes are synchronous so they finish even when
 * the framework exits right after us (Jest's --forceExit, a process on its way out).
 */
export class SpoolWriter {
  private openFile: string | undefined;
  private closedFile: string | undefined;
  /** The first failure, kept: one clear line, not one per batch. */
  private failure: TestrunError | undefined;

  constructor(
    private readonly dir: string,
    private readonly runRecord: () => Omit<SpoolRunRecord, 'pid' | 'host'>,
  ) {}

  /** Where the spool is, or will be once closed. */
  get path(): string | undefined {
    return this.closedFile;
  }

  /** Appends one batch as a SpoolBatchRecord; the run record goes first. Throws a TestrunError when the disk refuses. */
  writeBatch(batch: Batch): void {
    // `{"results":[…]}` becomes `{"type":"batch","idempotencyKey":"…","results":[…]}` without parsing it again.
    this.write(
      `{"type":"batch","idempotencyKey":${JSON.stringify(batch.idempotencyKey)},${batch.body.slice(1)}\n`,
    );
  }

  /** Makes sure the file exists even with no batch, for a run that was never created. */
  writeRunOnly(): void {
    this.write('');
  }

  /** Hands the file to replay (renames it from `.open`). Safe to call more than once. */
  close(): void {
    if (!this.openFile || !this.closedFile) return;
    try {
      fs.renameSync(this.openFile, this.closedFile);
    } catch {
      // Left as `.open`: replay takes it over once this process is gone.
    }
    this.openFile = undefined;
  }

  private write(text: string): void {
    if (this.failure) throw this.failure;
    try {
      if (!this.openFile) this.create();
      if (text) fs.appendFileSync(this.openFile!, text);
    } catch (error) {
      this.failure = spoolError(this.dir, error);
      throw this.failure;
    }
  }

  private create(): void {
    makeDirectory(this.dir);
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const closed = path.join(this.dir, `${stamp}-${randomUUID().slice(0, 8)}${CLOSED}`);
    const record: SpoolRunRecord = { ...this.runRecord(), pid: process.pid, host: os.hostname() };
    fs.writeFileSync(closed + OPEN, `${JSON.stringify(record)}\n`, { mode: 0o600, flag: 'wx' });
    this.openFile = closed + OPEN;
    this.closedFile = closed;
  }
}

/** A spool file this replay has claimed: nobody else reads or writes it until `release`. */
export interface ClaimedSpool {
  /** The file's name once released. */
  file: string;
  run: SpoolRunRecord;
  batches: SpoolBatchRecord[];
  claim: string;
}

/**
 * Claims every spool file in `dir` that is ready for replay: closed files, and the files
 * of writers or replays that died. Oldest first. A file that cannot be parsed is released
 * untouched and reported, never skipped silently.
 */
export function claimSpool(dir: string): {
  claimed: ClaimedSpool[];
  unreadable: { file: string; reason: string }[];
} {
  const claimed: ClaimedSpool[] = [];
  const unreadable: { file: string; reason: string }[] = [];
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return { claimed, unreadable };
  }
  for (const name of names.sort()) {
    const file = path.join(dir, closedName(name) ?? '');
    const source = path.join(dir, name);
    if (!closedName(name) || !isReady(source, name)) continue;
    const claim = `${file}.${process.pid}.replaying`;
    try {
      fs.renameSync(source, claim);
    } catch {
      continue; // Another replay took it first.
    }
    try {
      claimed.push({ file, claim, ...parseSpoolFile(fs.readFileSync(claim, 'utf8')) });
    } catch (error) {
      unreadable.push({ file, reason: (error as Error).message });
      fs.renameSync(claim, file);
    }
  }
  return { claimed, unreadable };
}

/** Gives a claimed file back with what is still undelivered, or removes it when nothing is. */
export function releaseSpool(spool: ClaimedSpool): void {
  if (spool.batches.length === 0 && spool.run.runId !== null) {
    fs.rmSync(spool.claim, { force: true });
    return;
  }
  const lines = [spool.run, ...spool.batches].map((record) => JSON.stringify(record)).join('\n');
  const temporary = `${spool.claim}.tmp`;
  fs.writeFileSync(temporary, `${lines}\n`, { mode: 0o600 });
  fs.renameSync(temporary, spool.claim);
  fs.renameSync(spool.claim, spool.file);
}

/** The closed file's name for any state of a spool file; undefined for anything else. */
function closedName(name: string): string | undefined {
  if (name.endsWith(CLOSED)) return name;
  if (name.endsWith(CLOSED + OPEN)) return name.slice(0, -OPEN.length);
  return CLAIMED.exec(name)?.[1];
}

/** Closed files are ready; open and claimed ones only when the process behind them is gone. */
function isReady(source: string, name: string): boolean {
  if (name.endsWith(CLOSED)) return true;
  const claimedBy = CLAIMED.exec(name)?.[2];
  if (claimedBy) return !isRunning(Number(claimedBy));
  try {
    const { pid, host } = JSON.parse(firstLine(source)) as Partial<SpoolRunRecord>;
    if (host === os.hostname() && typeof pid === 'number') return !isRunning(pid);
    return Date.now() - fs.statSync(source).mtimeMs > FOREIGN_OPEN_FILE_AGE_MS;
  } catch {
    return false;
  }
}

function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function firstLine(file: string): string {
  const buffer = Buffer.alloc(64 * 1024);
  const fd = fs.openSync(file, 'r');
  try {
    const length = fs.readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.toString('utf8', 0, length).split('\n')[0] ?? '';
  } finally {
    fs.closeSync(fd);
  }
}

function parseSpoolFile(text: string): { run: SpoolRunRecord; batches: SpoolBatchRecord[] } {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  // A process killed mid-write can leave a cut last line; the batches before it are whole.
  const records: (SpoolRunRecord | SpoolBatchRecord)[] = [];
  for (const [i, line] of lines.entries()) {
    try {
      records.push(JSON.parse(line));
    } catch (error) {
      if (i < lines.length - 1 || i === 0) throw error;
    }
  }
  const [run, ...batches] = records;
  if (run?.type !== 'run') throw new Error('the first line is not a run record');
  if (batches.some((batch) => batch.type !== 'batch'))
    throw new Error('a line after the first is not a batch');
  return { run, batches: batches as SpoolBatchRecord[] };
}

/**
 * Creates the spool directory, private (0700) whatever the umask. Level by level rather
 * than `recursive: true`, which spins forever on Node 20 under paths such as /proc.
 */
function makeDirectory(dir: string): void {
  const missing: string[] = [];
  let existing = path.resolve(dir);
  while (!fs.existsSync(existing)) {
    missing.unshift(existing);
    const parent = path.dirname(existing);
    if (parent === existing) break;
    existing = parent;
  }
  for (const level of missing) fs.mkdirSync(level, { mode: 0o700 });
}

function spoolError(dir: string, error: unknown): TestrunError {
  const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  return new TestrunError(
    'TESTRUN_SPOOL',
    `the spool directory ${dir} cannot be written (${reason}), so undelivered results are lost. Set TESTRUN_SPOOL_DIR (or the spoolDir option) to a writable directory.`,
    { cause: error },
  );
}
