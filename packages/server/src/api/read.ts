import type { FastifyInstance } from 'fastify';
import { runNotFound } from '../errors.js';
import type { Ledger } from '../ledger/ledger.js';
import { paths } from '../paths.js';

/** The read endpoints for people and tests: runs newest first with counts, one run, its results. */
export function registerReadApi(app: FastifyInstance, ledger: Ledger, statuses: readonly string[]): void {
  const { store } = ledger;

  app.get(paths.runs, async () =>
    store
      .runs()
      .reverse()
      .map((run) => store.withCounts(run, statuses)),
  );

  app.get<{ Params: { id: string } }>(paths.run, async (request) => {
    const run = store.run(request.params.id);
    if (!run) throw runNotFound(request.params.id);
    return store.withCounts(run, statuses);
  });

  app.get<{ Params: { id: string } }>(paths.runResults, async (request) => {
    if (!store.run(request.params.id)) throw runNotFound(request.params.id);
    return store.results(request.params.id);
  });
}
