import * as timers from 'node:timers';

// The clocks, timers and task queues core uses, taken when core loads
// (docs/design/runners-in-process.md#fake-timers-never-restored). Tests share the process with a
// reporter (Mocha's in serial mode, node:test's without isolation, a setup file in the framework's
// main process) and some install fake timers and never restore them: the globals then never fire,
// and delivery would never end. Values taken from `node:timers` and the globals now are the real
// ones whatever happens to the globals later (@sinonjs/fake-timers also replaces node:timers'
// exports); a fake installed even earlier is seen through (`real`).
export const setTimeout = real(timers.setTimeout, 'setTimeout');
export const clearTimeout = real(timers.clearTimeout, 'clearTimeout');
export const setImmediate = real(timers.setImmediate, 'setImmediate');

/**
 * Milliseconds on the monotonic clock: every budget and timeout (flushTimeout,
 * requestTimeout, backoff) is measured on it, so a wall clock stepped forward or back (NTP,
 * a VM resumed) cannot end the flush early or stretch it.
 */
export const monotonicNow: () => number = (
  (hrtime) => () =>
    Number(hrtime()) / 1e6
)(
  // process.hrtime, not the `performance` global: its first use loads perf_hooks, 2 ms of
  // every run's start (docs/performance.md).
  real(process.hrtime, 'hrtime').bigint,
);

const RealDate = real(Date, 'Date');

/** Milliseconds since the epoch, for dates a service sends (Retry-After) and dates core writes. */
export const wallClockNow: () => number = RealDate.now;

/** The current date and time, as `new Date().toISOString()` would say it with the real clock. */
export function wallClockIso(): string {
  return new RealDate(wallClockNow()).toISOString();
}

/** The task queues as Node started them: `queueMicrotask` is also what core's bundle gives p-queue. */
export const queueMicrotask: (callback: () => void) => void = real(
  globalThis.queueMicrotask,
  'queueMicrotask',
);
const nextTick = real(process.nextTick, 'nextTick');

/**
 * `value`, or the real one behind it when a fake clock was installed before core loaded (a
 * `--require` file that installs @sinonjs/fake-timers for the whole run): each of its fakes
 * points to its clock, which keeps what it replaced as `_<name>`.
 */
function real<T>(value: T, name: string): T {
  const original = (value as { clock?: Record<string, unknown> } | undefined)?.clock?.[`_${name}`];
  return original !== undefined && typeof original === typeof value ? (original as T) : value;
}

/**
 * Whether a test has replaced `process.nextTick` or `queueMicrotask` (fake timers that fake
 * them all). Node's own HTTP, net and stream code calls `process.nextTick` through the
 * process object, so while it is a fake no request can complete: its callbacks wait in the
 * fake's queue until the test advances its clock.
 */
export function taskQueuesFaked(): boolean {
  return process.nextTick !== nextTick || globalThis.queueMicrotask !== queueMicrotask;
}

/** Callers of untilRealTaskQueues waiting now, woken when the real queues are put back. */
const waiting = new Set<() => void>();
const POLL_MS = 100;

/**
 * Resolves when the task queues are real (at once, unless a test faked them and has not
 * restored them yet) or `signal` aborts. While a test holds fakes, a request would hang
 * inside Node; it waits instead, to go when the test restores them or when the run ends
 * (withRealTaskQueues). The poll keeps nothing alive.
 */
export function untilRealTaskQueues(signal: AbortSignal): Promise<void> {
  if (!taskQueuesFaked() || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const done = () => {
      clearTimeout(timer);
      waiting.delete(check);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const check = () => {
      if (!taskQueuesFaked() || signal.aborted) done();
      else timer = setTimeout(check, POLL_MS).unref();
    };
    waiting.add(check);
    signal.addEventListener('abort', done, { once: true });
    timer = setTimeout(check, POLL_MS).unref();
  });
}

/** Called when withRealTaskQueues puts Node's own queues back: what was in flight under the fakes is stranded. */
const restoredListeners = new Set<() => void>();

/**
 * Calls `listener` if the real task queues are put back at the end of a run while it is
 * subscribed: a request in flight when a test faked `process.nextTick` has its next steps
 * queued in the fake, which nothing will ever run, so it must be abandoned and sent again.
 * Returns a function that unsubscribes.
 */
export function onRealTaskQueuesRestored(listener: () => void): () => void {
  restoredListeners.add(listener);
  return () => restoredListeners.delete(listener);
}

/**
 * Runs `work` (the end of a run's delivery) with Node's own `process.nextTick` and
 * `queueMicrotask` in place, then puts back what was there. For the end of a run only: no
 * test is left to see the real ones, and fakes a test never restored would otherwise keep
 * every request from completing.
 */
export async function withRealTaskQueues<T>(work: () => Promise<T>): Promise<T> {
  if (!taskQueuesFaked()) return work();
  const found = { nextTick: process.nextTick, queueMicrotask: globalThis.queueMicrotask };
  process.nextTick = nextTick;
  globalThis.queueMicrotask = queueMicrotask;
  for (const listener of [...restoredListeners]) listener();
  for (const check of [...waiting]) check();
  try {
    return await work();
  } finally {
    process.nextTick = found.nextTick;
    globalThis.queueMicrotask = found.queueMicrotask;
  }
}
