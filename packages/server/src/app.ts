import Fastify, { type FastifyInstance } from 'fastify';
import { toApiError } from './error-handler.js';
import { errorBody } from './errors.js';
import { registerGuards } from './hooks/guards.js';
import { type FaultSwitch, registerFaultInjection } from './hooks/inject-faults.js';
import { registerJsonBody } from './hooks/json-body.js';
import { registerRequestRecording } from './hooks/record-requests.js';
import type { Ledger } from './ledger.js';
import type { HttpsOptions, ResolvedOptions } from './options.js';
import type { RequestLog } from './request-log.js';
import { registerCreateRun } from './routes/create-run.js';
import { registerPages } from './routes/pages.js';
import { pathOf } from './routes/paths.js';
import { registerReadApi } from './routes/read-api.js';
import { registerSubmitResults } from './routes/submit-results.js';

export interface AppParts {
  options: ResolvedOptions;
  ledger: Ledger;
  log: RequestLog;
  faults: FaultSwitch;
  closing: AbortSignal;
}

/**
 * Assembles the Fastify app. A request meets, in order: the request log, the guards
 * (401, 415), body reading (413 by size, 400 bad JSON), the fault hook, the batch limit
 * (413 by count), schema validation (400) and the route.
 */
export function buildApp({ options, ledger, log, faults, closing }: AppParts): FastifyInstance {
  const app = Fastify({
    logger: false,
    ...(options.https ? { https: tlsOptions(options.https) } : {}),
    bodyLimit: options.maxBodyBytes,
    // Without it, close() would wait for idle keep-alive clients to hang up.
    forceCloseConnections: true,
    ajv: {
      // Fastify's defaults coerce types and silently strip unknown fields: a strict
      // server must reject both.
      customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: false, allErrors: false },
    },
  });

  registerRequestRecording(app, log, options.apiKeys);
  registerGuards(app, options.apiKeys);
  registerJsonBody(app);
  registerFaultInjection(app, faults, closing);

  registerCreateRun(app, ledger);
  registerSubmitResults(app, ledger, options);
  registerReadApi(app, ledger, options.statuses);
  registerPages(app, ledger, options.statuses);

  app.setErrorHandler((error, _request, reply) => {
    const apiError = toApiError(error, options.maxBodyBytes);
    return reply
      .code(apiError.status)
      .headers(apiError.headers)
      .send(errorBody(apiError.code, apiError.message));
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send(errorBody('not_found', `no route for ${request.method} ${pathOf(request.url)}`)),
  );
  return app;
}

function tlsOptions({ cert, key, clientCa }: HttpsOptions) {
  return clientCa ? { cert, key, ca: clientCa, requestCert: true, rejectUnauthorized: true } : { cert, key };
}
