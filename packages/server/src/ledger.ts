import { DataFile } from './data-file.js';
import { IdempotencyRegistry } from './idempotency.js';
import type { DataRecord } from './records.js';
import { MemoryStore } from './store.js';

/**
 * The server's state and the only way to change it: commit() writes records to the
 * data file first and applies them in memory only once they are written, the same way
 * records read back from the file are applied on start.
 */
export class Ledger {
  readonly store = new MemoryStore();
  readonly idempotency = new IdempotencyRegistry();

  private constructor(private readonly file: DataFile | undefined) {}

  static async open(dataFile: string | undefined): Promise<Ledger> {
    if (dataFile === undefined) return new Ledger(undefined);
    const { file, records } = await DataFile.open(dataFile);
    const ledger = new Ledger(file);
    records.forEach((record, index) => {
      try {
        ledger.#apply(record);
      } catch (error) {
        throw new Error(`${dataFile}: record ${index + 1}: ${(error as Error).message}`);
      }
    });
    return ledger;
  }

  async commit(records: DataRecord[]): Promise<void> {
    if (records.length === 0) return;
    await this.file?.append(records);
    for (const record of records) this.#apply(record);
  }

  /** Resolves when every commit started so far is on disk. */
  async settled(): Promise<void> {
    await this.file?.settled();
  }

  #apply(record: DataRecord): void {
    if (record.type === 'idempotency') this.idempotency.apply(record);
    else this.store.apply(record);
  }
}
