import type { FastifyInstance } from 'fastify';
import { runNotFound } from '../errors.js';
import type { Ledger } from '../ledger/ledger.js';
import { runState } from '../ledger/run-state.js';
import type { StoredRun } from '../ledger/store.js';
import { paths } from '../paths.js';

/** The read endpoints for people and tests: runs newest first with counts, one run, its results. */
export function registerReadApi(
  app: FastifyInstance,
  ledger: Ledger,
  statuses: readonly string[],
  abandonedAfterMs: number,
): void {
  const { store } = ledger;
  const withState = (run: StoredRun, now: number) => {
    const counted = store.withCounts(run, statuses);
    return { ...counted, state: runState(counted, now, abandonedAfterMs) };
  };

  app.get(paths.runs, async () => {
    const now = Date.now();
    return store
      .runs()
      .reverse()
      .map((run) => withState(run, now));
  });

  app.get<{ Params: { id: string } }>(paths.run, async (request) => {
    const run = store.run(request.params.id);
    if (!run) throw runNotFound(request.params.id);
    return withState(run, Date.now());
  });

  app.get<{ Params: { id: string } }>(paths.runResults, async (request) => {
    if (!store.run(request.params.id)) throw runNotFound(request.params.id);
    return store.results(request.params.id);
  });
}
