// docs/design.md, "A process on its way out".

/** Signals a cancelled CI job or a Ctrl-C sends; the framework may or may not handle them. */
const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Calls `onExit` synchronously when the process is on its way out: `process.exit()`, an
 * emptied event loop, or one of SIGNALS. Only synchronous work is done in time then, so
 * `onExit` must be synchronous. A signal no one else listens for is raised again once
 * `onExit` is done, so the process ends exactly as it would have without us. Returns a
 * function that stops listening.
 */
export function onProcessExit(onExit: (reason: string) => void): () => void {
  let done = false;
  const run = (reason: string) => {
    if (done) return;
    done = true;
    onExit(reason);
  };
  const onExitEvent = () => run('exit');
  const onSignal = (signal: NodeJS.Signals) => {
    run(signal);
    if (process.listenerCount(signal) === 1) {
      dispose();
      process.kill(process.pid, signal);
    }
  };
  const dispose = () => {
    process.off('exit', onExitEvent);
    for (const signal of SIGNALS) process.off(signal, onSignal);
  };
  process.on('exit', onExitEvent);
  // First in line: the framework's own `once` listeners are still counted when ours runs,
  // so we know whether anyone else will end the process.
  for (const signal of SIGNALS) process.prependListener(signal, onSignal);
  return dispose;
}
