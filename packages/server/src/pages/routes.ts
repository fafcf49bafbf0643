import type { FastifyInstance } from 'fastify';
import type { Ledger } from '../ledger/ledger.js';
import { paths } from '../paths.js';
import { renderRunNotFoundPage, renderRunPage } from './run-page.js';
import { renderRunsPage } from './runs-page.js';

const htmlType = 'text/html; charset=utf-8';

/** Server-rendered pages for people; no key needed, no script. */
export function registerPages(app: FastifyInstance, ledger: Ledger, statuses: readonly string[]): void {
  const { store } = ledger;

  app.get(paths.runsPage, async (_request, reply) => {
    return reply.type(htmlType).send(
      renderRunsPage(
        store
          .runs()
          .reverse()
          .map((run) => store.withCounts(run, statuses)),
        statuses,
      ),
    );
  });

  app.get<{ Params: { id: string }; Querystring: { status?: string | string[] } }>(
    paths.runPage,
    async (request, reply) => {
      const run = store.run(request.params.id);
      if (!run) return reply.code(404).type(htmlType).send(renderRunNotFoundPage(request.params.id));
      const results = store.results(run.id);
      const filter = typeof request.query.status === 'string' ? request.query.status : undefined;
      const page = renderRunPage(store.withCounts(run, statuses), results, statuses, filter);
      return reply.type(htmlType).send(page);
    },
  );
}
