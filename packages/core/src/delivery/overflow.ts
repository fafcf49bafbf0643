import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Batch } from '../types.js';

/**
 * Batches that wait while the service is slower than the tests, kept on disk so the
 * reporter's memory stays bounded by batch size × concurrency, not by the number of
 * tests. First in, first out. The file holds results only, never the API key.
 */
export class Overflow {
  private file: string | undefined;
  private fd: number | undefined;
  private readonly entries: { offset: number; length: number }[] = [];
  private head = 0;
  private end = 0;

  get size(): number {
    return this.entries.length - this.head;
  }

  /** As `key<TAB>count<TAB>body`: the body is JSON already and holds no raw newline or tab. */
  push(batch: Batch): void {
    const line = Buffer.from(`${batch.idempotencyKey}\t${batch.count}\t${batch.body}`);
    if (this.fd === undefined) this.open();
    fs.writeSync(this.fd!, line, 0, line.length, this.end);
    this.entries.push({ offset: this.end, length: line.length });
    this.end += line.length;
  }

  shift(): Batch | undefined {
    const entry = this.entries[this.head];
    if (!entry) return undefined;
    this.head += 1;
    const buffer = Buffer.alloc(entry.length);
    fs.readSync(this.fd!, buffer, 0, entry.length, entry.offset);
    if (this.size === 0) this.reset();
    const line = buffer.toString('utf8');
    const first = line.indexOf('\t');
    const second = line.indexOf('\t', first + 1);
    return {
      idempotencyKey: line.slice(0, first),
      count: Number(line.slice(first + 1, second)),
      body: line.slice(second + 1),
    };
  }

  /** Removes the file; whatever was still in it is gone, so drain it first. */
  dispose(): void {
    this.entries.length = 0;
    this.head = 0;
    this.reset();
  }

  private open(): void {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'testrun-overflow-'));
    this.file = path.join(dir, 'batches.ndjson');
    this.fd = fs.openSync(this.file, 'w+', 0o600);
  }

  /** An empty overflow gives its disk space back at once. */
  private reset(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    if (this.file) fs.rmSync(path.dirname(this.file), { recursive: true, force: true });
    this.fd = undefined;
    this.file = undefined;
    this.entries.length = 0;
    this.head = 0;
    this.end = 0;
  }
}
