import { EventEmitter } from 'node:events';
import { constants } from 'node:os';

// docs/design/process-exit.md.

/** How the process is going: by a signal, or by exiting with a code. */
export type ProcessEnd = { signal: NodeJS.Signals } | { code: number };

/**
 * The signals a cancelled CI job, a Ctrl-C or a closed terminal send: a framework that
 * handles one of them ends its run (receivedSignal).
 */
const CANCEL_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Every signal signal-exit v4 listens to on this platform (v3's list is the same, but for
 * names Node does not know). The guard counts itself in signal-exit's count, which is one
 * number for every signal: a copy of it that hears a signal the guard does not listen to
 * finds one listener fewer than participants, takes it for someone else's and leaves the
 * process running (SIGQUIT, SIGALRM, SIGUSR2 were swallowed so, and the job exited 0). So
 * the guard listens to exactly these. Aliases (SIGIOT, SIGPOLL) are listened to as
 * signal-exit does, after the names they alias, so a code of 128 + n tells the first.
 */
const SIGNALS: readonly NodeJS.Signals[] = (
  [
    ...CANCEL_SIGNALS,
    ...(process.platform === 'win32'
      ? []
      : ([
          'SIGALRM',
          'SIGABRT',
          'SIGVTALRM',
          'SIGXCPU',
          'SIGXFSZ',
          'SIGUSR2',
          'SIGTRAP',
          'SIGSYS',
          'SIGQUIT',
          'SIGIOT',
        ] as const)),
    ...(process.platform === 'linux' ? (['SIGIO', 'SIGPOLL', 'SIGPWR', 'SIGSTKFLT'] as const) : []),
  ] as NodeJS.Signals[]
).filter((name) => name in constants.signals);
const unlistenable = new Set<NodeJS.Signals>();

type ExitCallback = (code: number | null | undefined, signal: string | null | undefined) => void;

/**
 * Calls `onExit` synchronously when the process is on its way out: `process.exit()`, an
 * emptied event loop, or one of SIGNALS. Only synchronous work is done in time then, so
 * `onExit` must be synchronous. The process then ends exactly as it would have without us,
 * whatever else listens for the signal. Returns a function that stops listening.
 */
export function onProcessExit(onExit: (end: ProcessEnd) => void): () => void {
  const entry = { onExit };
  guard.entries.add(entry);
  guard.install();
  return () => {
    guard.entries.delete(entry);
    if (guard.entries.size === 0) guard.uninstall();
  };
}

/**
 * Puts the guard's listeners back if something took them away: a test that calls
 * `process.removeAllListeners()` (or for `exit` and the signals) would otherwise leave a
 * cancelled job to die with nothing spooled. Cheap enough to call at every file's end.
 */
export function keepExitGuard(): void {
  if (!guard.installed || listening()) return;
  const emitter: EventEmitter = process;
  for (const [event, listener] of NODE_SIGNAL_LISTENERS) {
    if (!emitter.listeners(event).includes(listener)) emitter.on(event, listener);
  }
  guard.installed = false;
  participants().count -= 1;
  guard.install();
}

/**
 * Node's own `newListener` and `removeListener` listeners, which start and stop listening
 * for a signal at the OS, taken when core loads. `process.removeAllListeners()` removes them
 * too, after which no listener added hears a signal (the default action kills the process
 * first); keepExitGuard puts them back before its own.
 */
const NODE_SIGNAL_LISTENERS = (
  [
    ['newListener', 'startListeningIfSignal'],
    ['removeListener', 'stopListeningIfSignal'],
  ] as const
).flatMap(([event, name]) => {
  const listener = (process as EventEmitter).listeners(event).find((candidate) => candidate.name === name);
  return listener ? [[event, listener as (...args: unknown[]) => void] as const] : [];
});

/**
 * The signal the process received while a reporter listened, if any, though another handler
 * took it: the framework then ends its run (Playwright on SIGINT), and a cancelled job
 * wants it to end at once, as it would without the reporter, not after delivery.
 */
export function receivedSignal(): NodeJS.Signals | undefined {
  return guard.received;
}

/**
 * One listener per signal for the whole process, however many reporters share it. It takes
 * part in signal-exit's protocol, the one execa and many tools rely on (v3 and v4, any
 * number of copies): each participant counts itself in a shared emitter, and a signal
 * whose listeners are all participants is one nobody else handles, so it ends the process.
 * Measured with signal-exit v4 itself as the guard (e2e/cancelled-runs.test.ts): a `once`
 * listener that runs before it (Vitest's own) is removed before it is called and so not
 * counted, and a v3 copy loaded after it never counts it; either way the process ended
 * otherwise than without the reporter, or not at all. So this listener is first in line,
 * where every other listener is still there to be counted, and counts itself in v3's
 * emitter, which every v3 and v4 copy reads.
 */
const guard = {
  entries: new Set<{ onExit: (end: ProcessEnd) => void }>(),
  installed: false,
  done: false,
  /** The first signal that came, handled by us or by someone else. */
  received: undefined as NodeJS.Signals | undefined,

  install(): void {
    if (this.installed) return;
    this.installed = true;
    this.done = false;
    participants().count += 1;
    for (const signal of SIGNALS) {
      // Once each: keepExitGuard re-installs after only some of them were removed.
      process.off(signal, onSignal);
      // A signal the platform cannot listen to throws: skipped, as signal-exit skips it.
      try {
        process.prependListener(signal, onSignal);
      } catch {
        unlistenable.add(signal);
      }
    }
    // First in line too: a framework's own exit listener may call process.exit() again,
    // which ends the process before later listeners run.
    process.off('exit', onExitEvent);
    process.prependListener('exit', onExitEvent);
  },

  uninstall(): void {
    if (!this.installed) return;
    this.installed = false;
    participants().count -= 1;
    for (const signal of SIGNALS) process.off(signal, onSignal);
    process.off('exit', onExitEvent);
    for (const emitter of signalExitEmitters()) emitter.removeListener('exit', onSignalExitEnd);
  },

  /**
   * Tells every reporter once; a signal's own handler then ends the process in one step. The
   * listeners go only after every reporter has spooled: a second signal meanwhile (a CI
   * runner that signals the job twice, a process group and its parent both forwarding it)
   * is then held for a listener, not the default action that killed the process mid-write.
   */
  end(end: ProcessEnd): void {
    if (this.done) return;
    this.done = true;
    try {
      for (const entry of [...this.entries]) entry.onExit(end);
    } finally {
      if ('signal' in end) this.uninstall();
    }
  },
};

function listening(): boolean {
  return (
    process.listeners('exit').includes(onExitEvent) &&
    SIGNALS.every((signal) => unlistenable.has(signal) || process.listeners(signal).includes(onSignal))
  );
}

function onSignal(signal: NodeJS.Signals): void {
  // Only a cancel makes a framework's own end spool at once: a handler may take SIGUSR2 or
  // SIGQUIT for a heap or thread dump and the run go on, to be delivered as usual.
  if (CANCEL_SIGNALS.includes(signal)) guard.received ??= signal;
  if (guard.done) return;
  // Whichever signal-exit copy handles this signal tells its callbacks before it re-raises
  // it: so do we, and step aside, so its re-raise ends the process at once.
  for (const emitter of signalExitEmitters()) {
    emitter.removeListener('exit', onSignalExitEnd);
    emitter.on('exit', onSignalExitEnd);
  }
  const listeners = process.listeners(signal).length;
  if (listeners !== countedParticipants()) return; // Someone else handles it; if they exit, onExitEvent runs.
  guard.end({ signal });
  // Nobody else listens: end the process by the signal itself, as it would have ended.
  if (process.listeners(signal).length === 0) process.kill(process.pid, signal);
}

function onExitEvent(code: number): void {
  guard.end(fromExitCode(Number(code ?? process.exitCode ?? 0)));
}

const onSignalExitEnd: ExitCallback = (code, signal) => {
  guard.end(signal ? { signal: signal as NodeJS.Signals } : fromExitCode(Number(code ?? 0)));
};

/** What signal-exit keeps on the process: v3's emitter (an EventEmitter) and v4's. */
interface SignalExitEmitter {
  count: number;
  on(event: 'exit', callback: ExitCallback): unknown;
  removeListener(event: 'exit', callback: ExitCallback): unknown;
}

const V4_EMITTER = Symbol.for('signal-exit emitter');

function signalExitEmitters(): SignalExitEmitter[] {
  const v4 = (globalThis as Record<symbol, SignalExitEmitter | undefined>)[V4_EMITTER];
  return v4 ? [v4, participants()] : [participants()];
}

/** Participants v4 counts: its own copies and v3's count, in which we count ourselves. */
function countedParticipants(): number {
  return signalExitEmitters().reduce((sum, emitter) => sum + emitter.count, 0);
}

/** v3's emitter, made as v3 makes it when no copy of v3 has yet: a later v3 uses it as its own. */
function participants(): SignalExitEmitter {
  const holder = process as { __signal_exit_emitter__?: SignalExitEmitter };
  if (!holder.__signal_exit_emitter__) {
    const emitter = Object.assign(new EventEmitter(), { count: 0, emitted: {}, infinite: true });
    emitter.setMaxListeners(Number.POSITIVE_INFINITY);
    holder.__signal_exit_emitter__ = emitter;
  }
  return holder.__signal_exit_emitter__;
}

/**
 * A handler that ends the process over a signal exits with 128 + the signal's number, as a
 * shell reports a process the signal killed (Vitest does so on SIGINT and SIGTERM): such an
 * exit is told as the signal it stands for.
 */
function fromExitCode(code: number): ProcessEnd {
  const signal = SIGNALS.find((name) => constants.signals[name] === code - 128);
  return signal ? { signal } : { code };
}
