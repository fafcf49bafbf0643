import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { TestResult } from './types.js';

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

/**
 * Undelivered work of one session, as ndjson in `<spoolDir>/<time>-<id>.ndjson`, mode 0600.
 * Writes are synchronous so they finish even when the framework exits right after us
 * (Jest's --forceExit).
 */
export class SpoolWriter {
  private file: string | undefined;

  constructor(
    private readonly dir: string,
    private readonly runRecord: () => SpoolRunRecord,
  ) {}

  get path(): string | undefined {
    return this.file;
  }

  /** Appends one batch; the run record goes first. Throws when the disk refuses. */
  writeBatch(batch: SpoolBatchRecord): void {
    if (!this.file) this.file = this.create();
    fs.appendFileSync(this.file, `${JSON.stringify(batch)}\n`, { mode: 0o600 });
  }

  /** Makes sure the file exists even with no batch, for a run that was never created. */
  writeRunOnly(): void {
    if (!this.file) this.file = this.create();
  }

  private create(): string {
    fs.mkdirSync(this.dir, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const file = path.join(this.dir, `${stamp}-${randomUUID().slice(0, 8)}.ndjson`);
    fs.writeFileSync(file, `${JSON.stringify(this.runRecord())}\n`, { mode: 0o600, flag: 'wx' });
    return file;
  }
}

export interface SpoolFile {
  file: string;
  run: SpoolRunRecord;
  batches: SpoolBatchRecord[];
}

/** Reads every spool file in `dir`, oldest first. A file that cannot be parsed is reported, not skipped silently. */
export function readSpool(dir: string): {
  files: SpoolFile[];
  unreadable: { file: string; reason: string }[];
} {
  const files: SpoolFile[] = [];
  const unreadable: { file: string; reason: string }[] = [];
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((name) => name.endsWith('.ndjson'));
  } catch {
    return { files, unreadable };
  }
  for (const name of names.sort()) {
    const file = path.join(dir, name);
    try {
      files.push(parseSpoolFile(file, fs.readFileSync(file, 'utf8')));
    } catch (error) {
      unreadable.push({ file, reason: (error as Error).message });
    }
  }
  return { files, unreadable };
}

function parseSpoolFile(file: string, text: string): SpoolFile {
  const records = text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as SpoolRunRecord | SpoolBatchRecord);
  const [run, ...batches] = records;
  if (run?.type !== 'run') throw new Error('the first line is not a run record');
  if (batches.some((batch) => batch.type !== 'batch'))
    throw new Error('a line after the first is not a batch');
  return { file, run, batches: batches as SpoolBatchRecord[] };
}

/** Rewrites a spool file with what is still undelivered, or removes it when nothing is. */
export function rewriteSpoolFile(spool: SpoolFile): void {
  if (spool.batches.length === 0 && spool.run.runId !== null) {
    fs.rmSync(spool.file, { force: true });
    return;
  }
  const lines = [spool.run, ...spool.batches].map((record) => JSON.stringify(record)).join('\n');
  const temporary = `${spool.file}.tmp`;
  fs.writeFileSync(temporary, `${lines}\n`, { mode: 0o600 });
  fs.renameSync(temporary, spool.file);
}
