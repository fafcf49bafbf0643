import type { FastifyInstance } from 'fastify';
import { ApiError, runNotFound } from '../errors.js';
import type { Ledger } from '../ledger.js';
import type { ResultInput } from '../model.js';
import { resultsBodySchema } from '../schemas.js';
import { handleWrite } from './idempotent-write.js';
import { paths } from './paths.js';

interface ResultsBody {
  results: ResultInput[];
}

interface Limits {
  statuses: readonly string[];
  maxResultsPerRequest: number;
}

/** POST /api/v1/runs/{id}/results → 201 `{ accepted: n }`; 404 for an unknown run. */
export function registerSubmitResults(app: FastifyInstance, ledger: Ledger, limits: Limits): void {
  app.post<{ Params: { id: string }; Body: ResultsBody }>(
    paths.runResults,
    {
      schema: { body: resultsBodySchema(limits.statuses) },
      // Before schema validation: an oversized batch is a 413 whatever its contents.
      preValidation: async (request) => {
        const results = (request.body as Partial<ResultsBody> | null)?.results;
        if (Array.isArray(results) && results.length > limits.maxResultsPerRequest) {
          throw new ApiError(
            413,
            'too_many_results',
            `results has ${results.length} items; this server accepts at most ${limits.maxResultsPerRequest} per request`,
          );
        }
      },
    },
    (request, reply) =>
      handleWrite(request, reply, ledger, () => {
        const runId = request.params.id;
        if (!ledger.store.run(runId)) throw runNotFound(runId);
        const { results } = request.body;
        return {
          status: 201,
          headers: {},
          body: { accepted: results.length },
          records: [{ type: 'results', runId, results }],
        };
      }),
  );
}
