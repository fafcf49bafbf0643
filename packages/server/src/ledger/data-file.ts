import { appendFile, mkdir, readFile, truncate } from 'node:fs/promises';
import { dirname } from 'node:path';
/** The append-only ndjson file behind a server started with `dataFile`: one record a line. */
export class DataFile<Entry> {
  #lastWrite: Promise<void> = Promise.resolve();

  private constructor(readonly path: string) {}

  /** Opens the file (creating its directory) and reads back every record in it; `isRecord` says what one is. */
  static async open<Entry>(
    path: string,
    isRecord: (value: unknown) => value is Entry,
  ): Promise<{ file: DataFile<Entry>; records: Entry[] }> {
    await mkdir(dirname(path), { recursive: true });
    const text = await readTextIfExists(path);
    const complete = text.slice(0, text.lastIndexOf('\n') + 1);
    // A crash during an append can leave a torn last line. That write was never
    // acknowledged, so it is cut off rather than left to corrupt the next append.
    if (complete.length < text.length) await truncate(path, Buffer.byteLength(complete));
    return { file: new DataFile<Entry>(path), records: parseRecords(complete, path, isRecord) };
  }

  /**
   * Appends records as lines. Writes are chained so that a large append (which Node
   * splits into several writes) never interleaves with another one.
   */
  append(records: Entry[]): Promise<void> {
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

function parseRecords<Entry>(
  text: string,
  path: string,
  isRecord: (value: unknown) => value is Entry,
): Entry[] {
  const records: Entry[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    const record = parseLine(line, isRecord);
    if (!record) throw new Error(`${path}:${index + 1}: not a testrun data record`);
    records.push(record);
  });
  return records;
}

function parseLine<Entry>(line: string, isRecord: (value: unknown) => value is Entry): Entry | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
