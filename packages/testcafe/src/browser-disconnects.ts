import { createRequire } from 'node:module';

// TestCafe tells its reporters nothing of a browser that disconnected: it restarts the browser
// and runs the test again, and after the third disconnection it gives up, calls reportTaskDone
// with the tests reported so far, and exits 1 with the error on its console ("The Chrome …
// browser disconnected"). The error is the one thing that says what happened, so the reporter
// hears it where TestCafe does: the browser connections of the TestCafe that runs (its own
// module, lib/browser/connection/tracker.js, already loaded), each of which emits
// `disconnected` with it. Internals of TestCafe 3: should they change, nothing is heard and the
// run still fails, for fewer tests were reported than TestCafe counted (docs/design/testcafe.md).

const TRACKER = /[\\/]testcafe[\\/]lib[\\/]browser[\\/]connection[\\/]tracker\.js$/;

interface BrowserConnection {
  once?(event: string, listener: (error: unknown) => void): unknown;
}

/**
 * Listens for the disconnection of each browser TestCafe has connected (call it at
 * reportTaskStart, when every browser of the task is connected); returns what was heard so
 * far, each distinct message once. Never throws.
 */
export function listenForDisconnects(): () => string[] {
  const heard = new Set<string>();
  try {
    const cache = createRequire(import.meta.url).cache;
    const file = Object.keys(cache).find((name) => TRACKER.test(name));
    const tracker = file ? (cache[file]?.exports as Tracker | undefined) : undefined;
    const connections = tracker?.activeBrowserConnections ?? tracker?.default?.activeBrowserConnections;
    for (const connection of Object.values(connections ?? {}) as BrowserConnection[]) {
      connection.once?.('disconnected', (error) => heard.add(messageOf(error)));
    }
  } catch {
    // Not TestCafe 3's layout: the run still fails on the count of its tests.
  }
  return () => [...heard];
}

interface Tracker {
  activeBrowserConnections?: Record<string, unknown>;
  default?: { activeBrowserConnections?: Record<string, unknown> };
}

function messageOf(error: unknown): string {
  const message = (error as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' && message.trim() !== '' ? message.trim() : String(error);
}
