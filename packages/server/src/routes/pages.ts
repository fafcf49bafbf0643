import type { FastifyInstance } from 'fastify';
import type { Ledger } from '../ledger.js';
import { renderRunNotFoundPage, renderRunPage } from '../pages/run-page.js';
import { renderRunsPage } from '../pages/runs-page.js';
import { countRun, countRuns } from '../run-counts.js';
import { paths } from './paths.js';

const htmlType = 'text/html; charset=utf-8';

/** Server-rendered pages for people; no key needed, no script. */
export function registerPages(app: FastifyInstance, ledger: Ledger, statuses: readonly string[]): void {
  const { store } = ledger;

  app.get(paths.runsPage, async (_request, reply) => {
    return reply.type(htmlType).send(renderRunsPage(countRuns(store, statuses), statuses));
  });

  app.get<{ Params: { id: string }; Querystring: { status?: string | string[] } }>(
    paths.runPage,
    async (request, reply) => {
      const run = store.run(request.params.id);
      if (!run) return reply.code(404).type(htmlType).send(renderRunNotFoundPage(request.params.id));
      const results = store.results(run.id);
      const filter = typeof request.query.status === 'string' ? request.query.status : undefined;
      const page = renderRunPage(countRun(run, results, statuses), results, statuses, filter);
      return reply.type(htmlType).send(page);
    },
  );
}
