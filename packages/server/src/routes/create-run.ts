import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Ledger } from '../ledger.js';
import type { StoredRun } from '../model.js';
import { runBodySchema } from '../schemas.js';
import { handleWrite } from './idempotent-write.js';
import { paths, runLocation, runPagePath } from './paths.js';

interface RunBody {
  project: string;
  framework: string;
  tags?: string[];
}

/** POST /api/v1/runs → 201 with the run, its Location, and a Link to its page for people. */
export function registerCreateRun(app: FastifyInstance, ledger: Ledger): void {
  app.post<{ Body: RunBody }>(paths.runs, { schema: { body: runBodySchema } }, (request, reply) =>
    handleWrite(request, reply, ledger, () => {
      const { project, framework, tags = [] } = request.body;
      const run: StoredRun = {
        id: randomUUID(),
        project,
        framework,
        tags,
        createdAt: new Date().toISOString(),
      };
      return {
        status: 201,
        headers: {
          location: runLocation(run.id),
          link: `<${runPagePath(run.id)}>; rel="alternate"; type="text/html"`,
        },
        body: run,
        records: [{ type: 'run', run }],
      };
    }),
  );
}
