import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';

const childScript = fileURLToPath(new URL('./server-child.mjs', import.meta.url));

/**
 * Starts a local @testrun/server in a child process (`execArgv`: its node flags; `specOnly`: it
 * announces no extension, as a service that has only the spec's two operations). Returns its url
 * and key, `stats()` (what the server stored and answered) and `close()`.
 */
export async function startServer({ execArgv = [], specOnly = false } = {}) {
  const apiKey = `bench-${randomBytes(12).toString('hex')}`;
  const child = fork(childScript, [], {
    env: { ...process.env, BENCH_API_KEY: apiKey, ...(specOnly && { BENCH_SPEC_ONLY: '1' }) },
    // Not the parent's flags: a --cpu-prof or --expose-gc meant for the measured process stays there.
    execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let nextId = 0;
  const waiting = new Map();
  const url = await new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`server exited early (${code})`)));
    child.on('message', (message) => {
      if (message.type === 'ready') resolve(message.url);
      const waiter = waiting.get(message.id);
      if (waiter) {
        waiting.delete(message.id);
        waiter(message);
      }
    });
  });
  child.removeAllListeners('exit');
  const ask = (type, extra = {}) =>
    new Promise((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      child.send({ type, id, ...extra });
    });
  return {
    url,
    apiKey,
    pid: child.pid,
    /** Counts of requests, statuses and stored results; `runIds`: runs to also count distinct results of. */
    stats: async (runIds = []) => (await ask('stats', { runIds })).stats,
    /** Per testSuite of run `runId`: ms since the epoch when its results were last acknowledged (2xx). */
    acks: async (runId) => (await ask('acks', { runId })).acks,
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await ask('close');
      await exited;
    },
  };
}
