import { clearTimeout, monotonicNow, setTimeout } from '../clock.js';

/**
 * The one end-of-run deadline (flushTimeout). Until `start` is called nothing is due; after
 * it, requests are aborted at the deadline and waits that would end past it end at once,
 * so every retry and Retry-After fits inside the flush budget. Measured on the monotonic clock.
 */
export class Deadline {
  private readonly controller = new AbortController();
  private at = Number.POSITIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;
  private readonly sleepers = new Set<{ end: number; wake: (slept: boolean) => void }>();

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get passed(): boolean {
    return this.controller.signal.aborted;
  }

  /** Milliseconds left; Infinity before the deadline is set. */
  remaining(): number {
    return this.at - monotonicNow();
  }

  start(ms: number): void {
    if (this.at !== Number.POSITIVE_INFINITY) return;
    this.at = monotonicNow() + ms;
    this.timer = setTimeout(() => this.expire(), ms);
    for (const sleeper of this.sleepers) if (sleeper.end > this.at) sleeper.wake(false);
  }

  /** Resolves true after `ms`, or false as soon as it is clear the deadline comes first. */
  sleep(ms: number): Promise<boolean> {
    const end = monotonicNow() + ms;
    if (this.passed || end > this.at) return Promise.resolve(false);
    return new Promise((resolve) => {
      const sleeper = {
        end,
        wake: (slept: boolean) => {
          clearTimeout(timer);
          this.sleepers.delete(sleeper);
          resolve(slept);
        },
      };
      const timer = setTimeout(() => sleeper.wake(true), ms);
      this.sleepers.add(sleeper);
    });
  }

  /** Resolves when the deadline passes. */
  expired(): Promise<void> {
    if (this.passed) return Promise.resolve();
    return new Promise((resolve) => this.signal.addEventListener('abort', () => resolve(), { once: true }));
  }

  expire(): void {
    clearTimeout(this.timer);
    this.controller.abort();
    for (const sleeper of this.sleepers) sleeper.wake(false);
  }

  /** Stops the timer so a finished session keeps nothing alive. */
  dispose(): void {
    clearTimeout(this.timer);
  }
}
