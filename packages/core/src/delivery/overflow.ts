import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Batch } from '../types.js';

/**
 * Batches that wait while the service is slower than the tests, kept on disk so the
 * reporter's memory stays bounded by batch size × concurrency, not by the number of
 * tests. First in, first out. The file holds each batch's request body, `{"results":[…]}`,
 * one after another: results only, never the API key. Where each one starts, its length, key
 * and count are kept in memory; the file is private, and nothing reads it as a spool.
 */
export class Overflow {
  private file: string | undefined;
  private fd: number | undefined;
  private readonly entries: {
    offset: number;
    length: number;
    idempotencyKey: string;
    count: number;
    withDetails: boolean;
    withAttachments: boolean | undefined;
  }[] = [];
  private head = 0;
  private end = 0;

  get size(): number {
    return this.entries.length - this.head;
  }

  push(batch: Batch): void {
    const body = Buffer.from(batch.body);
    if (this.fd === undefined) this.open();
    fs.writeSync(this.fd!, body, 0, body.length, this.end);
    const { idempotencyKey, count, withDetails, withAttachments } = batch;
    this.entries.push({
      offset: this.end,
      length: body.length,
      idempotencyKey,
      count,
      withDetails,
      withAttachments,
    });
    this.end += body.length;
  }

  shift(): Batch | undefined {
    const entry = this.entries[this.head];
    if (!entry) return undefined;
    this.head += 1;
    const buffer = Buffer.alloc(entry.length);
    fs.readSync(this.fd!, buffer, 0, entry.length, entry.offset);
    if (this.size === 0) this.reset();
    const { idempotencyKey, count, withDetails, withAttachments } = entry;
    return { idempotencyKey, count, withDetails, withAttachments, body: buffer.toString('utf8') };
  }

  /** Removes the file; whatever was still in it is gone, so drain it first. */
  dispose(): void {
    this.entries.length = 0;
    this.head = 0;
    this.reset();
  }

  private open(): void {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'testrun-overflow-'));
    this.file = path.join(dir, 'bodies');
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
