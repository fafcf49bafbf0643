import { clearTimeout, setTimeout } from '../clock.js';
import type { TestResult } from '../types.js';

/**
 * Groups results into batches: a full batch (batchSize) goes at once, a partial one after
 * flushInterval, so results stream to the service while the tests run (docs/design/delivery.md#batching).
 */
export class Batcher {
  private buffer: TestResult[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly batchSize: number,
    private readonly flushInterval: number,
    private readonly onBatch: (results: TestResult[]) => void,
  ) {}

  add(results: readonly TestResult[]): void {
    for (const result of results) this.buffer.push(result);
    while (this.buffer.length >= this.batchSize) this.onBatch(this.buffer.splice(0, this.batchSize));
    if (this.buffer.length > 0 && !this.timer) {
      this.timer = setTimeout(() => this.flush(), this.flushInterval);
      // A pending partial batch must not keep the test process alive; the end of the run flushes it.
      this.timer.unref();
    }
  }

  /** Sends the partial batch now, if there is one. */
  flush(): void {
    const results = this.take();
    if (results.length > 0) this.onBatch(results);
  }

  /** Empties the buffer without sending it: for a process on its way out. */
  take(): TestResult[] {
    clearTimeout(this.timer);
    this.timer = undefined;
    return this.buffer.splice(0);
  }
}
