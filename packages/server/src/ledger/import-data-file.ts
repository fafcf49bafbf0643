import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { SqlStore } from './sql-store.js';
import type { ResultInput, RunEnd, SavedResponse, StoredRun } from './store.js';

// The records of the append-only ndjson data file older servers wrote (`dataFile`), one a
// line: the format is frozen here, read once and imported into the database.

interface RunCreated {
  type: 'run';
  run: StoredRun;
}

interface ResultsAccepted {
  type: 'results';
  runId: string;
  results: ResultInput[];
  /** Absent in data files written before runs had states. */
  receivedAt?: string;
}

interface RunEnded {
  type: 'end';
  runId: string;
  end: RunEnd;
}

interface IdempotentResponse {
  type: 'idempotency';
  key: string;
  method: string;
  path: string;
  fingerprint: string;
  response: SavedResponse;
}

export type DataRecord = RunCreated | ResultsAccepted | RunEnded | IdempotentResponse;

/** An older data file that cannot be imported: nothing of it was, so it can be fixed and the server restarted. */
export class DataFileImportError extends Error {
  readonly code = 'data_file_unreadable';
  constructor(message: string) {
    super(message);
    this.name = 'DataFileImportError';
  }
}

export interface ImportOutcome {
  /** False when the file was imported on an earlier start (or does not exist). */
  imported: boolean;
  runs: number;
  results: number;
}

/**
 * Imports an older server's data file into the database, once: the file's absolute path is
 * recorded in `imports` in the same transaction as its records, so a crash mid-import leaves
 * nothing and the next start imports it whole, and a later start skips it. The file is left
 * in place, never written again: it is the user's, and a copy to go back to.
 *
 * A torn last line (a crash during an append) was never acknowledged and is left out, as the
 * older server did. Any other line that is not a record refuses the import with its line number.
 */
export async function importDataFile(store: SqlStore, path: string): Promise<ImportOutcome> {
  const absolute = resolve(path);
  const text = await readTextIfExists(absolute);
  if (text === undefined) return { imported: false, runs: 0, results: 0 };
  const done = await store.db.query('SELECT path FROM imports WHERE path = $1', [absolute]);
  if (done.length > 0) return { imported: false, runs: 0, results: 0 };

  const complete = text.slice(0, text.lastIndexOf('\n') + 1);
  const records = parseRecords(complete, path);
  return store.write(async (tx) => {
    const outcome = { imported: true, runs: 0, results: 0 };
    for (const [line, record] of records) {
      const fail = (why: string) => new DataFileImportError(`${path}:${line}: ${why}`);
      if (record.type === 'run') {
        if (await tx.run(record.run.id)) throw fail(`run ${record.run.id} is already in the database`);
        await tx.insertRun(await tx.nextRunSeq(), record.run, record.run.createdAt);
        outcome.runs += 1;
      } else if (record.type === 'results') {
        if (!(await tx.addResults(record.runId, record.results, record.receivedAt))) {
          throw fail(`results for unknown run ${record.runId}`);
        }
        outcome.results += record.results.length;
      } else if (record.type === 'end') {
        if (!(await tx.endRun(record.runId, record.end))) throw fail(`end of unknown run ${record.runId}`);
      } else {
        const { type: _type, ...saved } = record;
        await tx.saveResponse(saved, new Date().toISOString());
      }
    }
    await tx.tx.query('INSERT INTO imports (path, sha256, records, imported_at) VALUES ($1, $2, $3, $4)', [
      absolute,
      createHash('sha256').update(text).digest('hex'),
      records.length,
      new Date().toISOString(),
    ]);
    return outcome;
  });
}

async function readTextIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

const recordTypes = new Set(['run', 'results', 'end', 'idempotency']);

function parseRecords(text: string, path: string): [number, DataRecord][] {
  const records: [number, DataRecord][] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    const record = parseLine(line);
    if (!record) throw new DataFileImportError(`${path}:${index + 1}: not a testrun data record`);
    records.push([index + 1, record]);
  });
  return records;
}

function parseLine(line: string): DataRecord | undefined {
  try {
    const value: unknown = JSON.parse(line);
    const type = (value as { type?: unknown } | null)?.type;
    return typeof value === 'object' && value !== null && recordTypes.has(type as string)
      ? (value as DataRecord)
      : undefined;
  } catch {
    return undefined;
  }
}
