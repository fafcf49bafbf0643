import { appendFile, mkdir, readFile, truncate } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type DataRecord, isDataRecord } from './records.js';

/** The append-only ndjson file behind a server started with `dataFile`. */
export class DataFile {
  #lastWrite: Promise<void> = Promise.resolve();

  private constructor(readonly path: string) {}

  /** Opens the file (creating its directory) and reads back every record in it. */
  static async open(path: string): Promise<{ file: DataFile; records: DataRecord[] }> {
    await mkdir(dirname(path), { recursive: true });
    const text = await readTextIfExists(path);
    const complete = text.slice(0, text.lastIndexOf('\n') + 1);
    // A crash during an append can leave a torn last line. That write was never
    // acknowledged, so it is cut off rather than left to corrupt the next append.
    if (complete.length < text.length) await truncate(path, Buffer.byteLength(complete));
    return { file: new DataFile(path), records: parseRecords(complete, path) };
  }

  /**
   * Appends records as lines. Writes are chained so that a large append (which Node
   * splits into several writes) never interleaves with another one.
   */
  append(records: DataRecord[]): Promise<void> {
    const text = records.map((record) => `${JSON.stringify(record)}\n`).join('');
    const write = this.#lastWrite.then(() => appendFile(this.path, text));
    this.#lastWrite = write.catch(() => {});
    return write;
  }

  /** Resolves when every append started so far has finished. */
  settled(): Promise<void> {
    return this.#lastWrite;
  }
}

async function readTextIfExists(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  }
}

function parseRecords(text: string, path: string): DataRecord[] {
  const records: DataRecord[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    const record = parseLine(line);
    if (!record) throw new Error(`${path}:${index + 1}: not a testrun data record`);
    records.push(record);
  });
  return records;
}

function parseLine(line: string): DataRecord | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return isDataRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
