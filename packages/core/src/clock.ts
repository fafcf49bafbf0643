import { clearTimeout, setImmediate, setTimeout } from 'node:timers';

// The clocks and timers core uses, taken when core loads (docs/design.md, "Clocks and
// timers"). Tests share the process with a reporter (Mocha's, node:test's, a setup file in
// the framework's main process) and some install fake timers and never restore them: the
// globals then never fire, and delivery would never end. `node:timers` and a bound
// `performance.now` are the real ones whatever happens to the globals later.
export { clearTimeout, setImmediate, setTimeout };

/**
 * Milliseconds on the monotonic clock: every budget and timeout (flushTimeout,
 * requestTimeout, backoff) is measured on it, so a wall clock stepped forward or back (NTP,
 * a VM resumed) cannot end the flush early or stretch it.
 */
export const monotonicNow: () => number = performance.now.bind(performance);

/** Milliseconds since the epoch, for comparing with dates a service sends (Retry-After). */
export const wallClockNow: () => number = Date.now;
