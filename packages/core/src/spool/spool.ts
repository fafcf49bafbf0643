import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { wallClockIso, wallClockNow } from '../clock.js';
import { TestrunError } from '../errors.js';
import { randomUUID } from '../random-uuid.js';
import type { Batch } from '../types.js';
import { type OwnerState, ownerState, pidOnlyOwnerState, thisProcess } from './spool-owner.js';
import {
  attachmentRecordLine,
  batchRecordLine,
  completeRecordLine,
  parseSpoolFile,
  type SpoolAttachmentRecord,
  type SpoolBatchRecord,
  type SpoolCompleteRecord,
  type SpoolRunRecord,
} from './spool-records.js';

// The spool: undelivered work, one ndjson file per session, for `testrun replay`. The
// format and the rules that let reporters and replays share a directory safely are in
// docs/design/spool-and-replay.md#the-spool.
//
//   <stamp>-<id>.ndjson.open     being written by a live reporter: replay leaves it alone
//   <stamp>-<id>.ndjson          closed: ready for replay
//   <stamp>-<id>.ndjson.<pid>-<start>-<machine>-<until>.replaying
//                                claimed by a replay (spool-owner.ts), until its --timeout ends
//   <stamp>-<id>.ndjson.bad      not what a reporter writes: set aside, never sent
//
// Every step from one name to the next is a rename, which is atomic, so a file is only
// ever in one hand. A file whose writer or replayer died is taken over by the next replay.

export type {
  SpoolAttachmentRecord,
  SpoolBatchRecord,
  SpoolCompleteRecord,
  SpoolRunRecord,
} from './spool-records.js';

const OPEN = '.open';
const CLOSED = '.ndjson';
const BAD = '.bad';
/** Today's claims, and the `<file>.<pid>.replaying` of earlier versions (no start, machine or end). */
const CLAIMED = /^(.+\.ndjson)\.(\d+)(?:-(\d+|x)-([0-9a-f]{12})-(\d+))?\.replaying$/;
/** An open file from another machine is taken over once it has not changed for this long. */
const FOREIGN_OPEN_FILE_AGE_MS = 24 * 60 * 60_000;
/** A claim from another machine is taken over this long after its replay's --timeout ended: clocks differ. */
const FOREIGN_CLAIM_GRACE_MS = 60_000;

/** The run record's fields that say which process writes the file. */
type Owner = 'pid' | 'host' | 'processStart' | 'machine';

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
    private readonly runRecord: () => Omit<SpoolRunRecord, Owner>,
  ) {}

  /** Where the spool is, or will be once closed. */
  get path(): string | undefined {
    return this.closedFile;
  }

  /** Appends one batch as a SpoolBatchRecord; the run record goes first. Throws a TestrunError when the disk refuses. */
  writeBatch(batch: Batch): void {
    this.write(batchRecordLine(batch));
  }

  /** Appends the run's end, for replay to send after the batches (`completeRun`). */
  writeComplete(record: Omit<SpoolCompleteRecord, 'type'>): void {
    this.write(completeRecordLine(record));
  }

  /** Appends a file to upload (`attachments`), for replay. */
  writeAttachment(record: Omit<SpoolAttachmentRecord, 'type'>): void {
    this.write(attachmentRecordLine(record));
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
    const stamp = wallClockIso().replace(/[:.]/g, '-');
    const closed = path.join(this.dir, `${stamp}-${randomUUID().slice(0, 8)}${CLOSED}`);
    const { pid, start, machine } = thisProcess();
    const owner = { pid, host: os.hostname(), processStart: start, machine };
    const record: SpoolRunRecord = { ...this.runRecord(), ...owner };
    fs.writeFileSync(closed + OPEN, `${JSON.stringify(record)}\n`, { mode: 0o600, flag: 'wx' });
    this.openFile = closed + OPEN;
    this.closedFile = closed;
  }
}

/** A spool file this replay has claimed: nobody else reads or writes it until `releaseSpool`. */
export interface ClaimedSpool {
  /** The file's name once released. */
  file: string;
  run: SpoolRunRecord;
  batches: SpoolBatchRecord[];
  /** The run's end, while it is still to be sent. */
  complete: SpoolCompleteRecord | undefined;
  /** Files still to upload. */
  attachments: SpoolAttachmentRecord[];
  claim: string;
}

/** What one look at the spool directory found. */
export interface SpoolScan {
  claimed: ClaimedSpool[];
  /** Files whose lines are not what a reporter writes: moved aside, now, to `file` (`….ndjson.bad`). */
  setAside: { file: string; reason: string }[];
  /** `.bad` files set aside by earlier replays, waiting to be fixed or deleted. */
  badFiles: string[];
  /** Files that could not be read; left as they were. */
  unreadable: { file: string; reason: string }[];
  /** Files a running reporter or replay holds: left alone. */
  held: { file: string; holder: string }[];
}

/**
 * Claims every spool file in `dir` that is ready for replay: closed files, and the files
 * of writers or replays that died. Oldest first. Claims say they are held until `until`
 * (ms since the epoch), when the replay's --timeout ends. Every file not claimed is
 * accounted for in the scan, never skipped silently.
 */
export function claimSpool(dir: string, until: number): SpoolScan {
  const scan: SpoolScan = { claimed: [], setAside: [], badFiles: [], unreadable: [], held: [] };
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return scan;
  }
  const owner = thisProcess();
  for (const name of names.sort()) {
    if (name.endsWith(CLOSED + BAD)) scan.badFiles.push(path.join(dir, name));
    const closed = closedName(name);
    if (!closed) continue;
    const file = path.join(dir, closed);
    const source = path.join(dir, name);
    const holder = holderOf(source, name);
    if (holder) {
      scan.held.push({ file, holder });
      continue;
    }
    const claim = `${file}.${owner.pid}-${owner.start ?? 'x'}-${owner.machine}-${Math.ceil(until)}.replaying`;
    try {
      fs.renameSync(source, claim);
    } catch {
      continue; // Another replay took it first.
    }
    readClaimed(file, claim, scan);
  }
  return scan;
}

function readClaimed(file: string, claim: string, scan: SpoolScan): void {
  let text: string;
  try {
    text = fs.readFileSync(claim, 'utf8');
  } catch (error) {
    scan.unreadable.push({ file, reason: (error as NodeJS.ErrnoException).code ?? String(error) });
    giveBack(claim, file);
    return;
  }
  try {
    scan.claimed.push({ file, claim, ...parseSpoolFile(text) });
  } catch (error) {
    const reason = (error as Error).message;
    try {
      fs.renameSync(claim, file + BAD);
      scan.setAside.push({ file: file + BAD, reason });
    } catch (renameError) {
      const code = (renameError as NodeJS.ErrnoException).code;
      scan.unreadable.push({ file, reason: `${reason}; it could not be set aside (${code})` });
      giveBack(claim, file);
    }
  }
}

/** Gives a claimed file back with what is still undelivered, or removes it when nothing is. */
export function releaseSpool(spool: ClaimedSpool): void {
  if (!fs.existsSync(spool.claim)) {
    // Held past its --timeout (a suspended process): another replay took it over, and sends it.
    throw new Error("another replay took it over once this replay's --timeout had passed");
  }
  const empty = spool.batches.length === 0 && spool.attachments.length === 0 && !spool.complete;
  if (empty && spool.run.runId !== null) {
    fs.rmSync(spool.claim, { force: true });
    return;
  }
  const records = [
    spool.run,
    ...spool.batches,
    ...spool.attachments,
    ...(spool.complete ? [spool.complete] : []),
  ];
  const lines = records.map((record) => JSON.stringify(record)).join('\n');
  const temporary = `${spool.claim}.tmp`;
  try {
    fs.writeFileSync(temporary, `${lines}\n`, { mode: 0o600 });
    fs.renameSync(temporary, spool.claim);
  } catch (error) {
    // Given back as it was read: batches delivered meanwhile go again, under their keys, and are stored once.
    giveBack(spool.claim, spool.file);
    try {
      fs.rmSync(temporary, { force: true });
    } catch {}
    throw error;
  }
  fs.renameSync(spool.claim, spool.file);
}

/** Puts a claimed file back untouched; a file that cannot be renamed stays claimed, and the next replay takes it over. */
function giveBack(claim: string, file: string): void {
  try {
    fs.renameSync(claim, file);
  } catch {}
}

/** The closed file's name for any state of a spool file; undefined for anything else. */
function closedName(name: string): string | undefined {
  if (name.endsWith(CLOSED)) return name;
  if (name.endsWith(CLOSED + OPEN)) return name.slice(0, -OPEN.length);
  return CLAIMED.exec(name)?.[1];
}

/**
 * Who holds an open or claimed file, while they may still be at it; undefined when the
 * file is ready for replay: closed, or its writer or replay is gone.
 */
function holderOf(source: string, name: string): string | undefined {
  if (name.endsWith(CLOSED)) return undefined;
  const claim = CLAIMED.exec(name);
  if (claim) {
    const [, , pid, start, machine, until] = claim;
    if (!machine)
      return pidOnlyOwnerState(Number(pid)) === 'alive' ? `a running replay (pid ${pid})` : undefined;
    const state = ownerState({ pid: Number(pid), start: start === 'x' ? undefined : start, machine });
    if (state === 'alive') return `a running replay (pid ${pid})`;
    if (state === 'dead' || wallClockNow() > Number(until) + FOREIGN_CLAIM_GRACE_MS) return undefined;
    // Its own deadline, plus the grace a replay elsewhere gets: when a replay here takes it over.
    const takenOver = new Date(Number(until) + FOREIGN_CLAIM_GRACE_MS).toISOString();
    return `a replay on another machine or in another container (pid ${pid}); a replay will take it over after ${takenOver}`;
  }
  const writer = readWriter(source);
  const state = writer ? writerState(writer) : 'elsewhere';
  if (state === 'alive') return `a running reporter (pid ${writer!.pid})`;
  if (state === 'dead') return undefined;
  if (unchangedForMs(source) > FOREIGN_OPEN_FILE_AGE_MS) return undefined;
  return 'a reporter on another machine or in another container, until it has not changed for 24 hours';
}

type Writer = Pick<SpoolRunRecord, Owner> & { pid: number };

/** Who writes an open file, from its run record; undefined while that cannot be read (yet). */
function readWriter(source: string): Writer | undefined {
  try {
    const record = JSON.parse(firstLine(source)) as Partial<SpoolRunRecord>;
    return typeof record.pid === 'number' ? (record as Writer) : undefined;
  } catch {
    return undefined;
  }
}

/** Files of earlier versions name only pid and host: on this host the pid alone decides. */
function writerState({ pid, host, processStart, machine }: Writer): OwnerState {
  if (typeof machine === 'string') {
    return ownerState({ pid, start: typeof processStart === 'string' ? processStart : undefined, machine });
  }
  return host === os.hostname() ? pidOnlyOwnerState(pid) : 'elsewhere';
}

/** Infinity for a file that is gone: another replay claimed it meanwhile, and our rename fails. */
function unchangedForMs(file: string): number {
  try {
    return wallClockNow() - fs.statSync(file).mtimeMs;
  } catch {
    return Number.POSITIVE_INFINITY;
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
