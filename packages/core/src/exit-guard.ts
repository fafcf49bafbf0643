// docs/design.md, "A process on its way out".

/** Signals a cancelled CI job or a Ctrl-C sends; the framework may or may not handle them. */
const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Calls `onExit` synchronously when the process is on its way out: `process.exit()`, an
 * emptied event loop, or one of SIGNALS that nobody else handles. Only synchronous work is
 * done in time then, so `onExit` must be synchronous. A signal the framework handles is
 * left to it (Vitest and Playwright end the run and call the reporter's end hook, which
 * can still deliver); if the process then exits before the run ended, `onExit` runs on the
 * way out, told which signal it was. A signal nobody else handles is raised again after
 * `onExit`, so the process ends exactly as it would have without us. Returns a function
 * that stops listening.
 */
/** How the process is going: by a signal, or by exiting with a code. */
export type ProcessEnd = { signal: NodeJS.Signals } | { code: number };

export function onProcessExit(onExit: (end: ProcessEnd) => void): () => void {
  let done = false;
  let signalled: NodeJS.Signals | undefined;
  const run = (code?: number) => {
    if (done) return;
    done = true;
    onExit(signalled ? { signal: signalled } : { code: code ?? Number(process.exitCode ?? 0) });
  };
  const onSignal = (signal: NodeJS.Signals) => {
    signalled ??= signal;
    // First in line, so the framework's own `once` listeners are still counted here.
    if (process.listenerCount(signal) > 1) return;
    run();
    dispose();
    process.kill(process.pid, signal);
  };
  const dispose = () => {
    process.off('exit', run);
    for (const signal of SIGNALS) process.off(signal, onSignal);
  };
  // First in line here too: a framework's own exit listener may call process.exit() again,
  // which ends the process before later listeners run.
  process.prependListener('exit', run);
  for (const signal of SIGNALS) process.prependListener(signal, onSignal);
  return dispose;
}
