import type { FastifyInstance, FastifyRequest } from 'fastify';
import { checkBearer } from '../auth.js';
import { requestContext, setRequestContext } from '../request-context.js';
import type { RequestLog } from '../request-log.js';
import { classifyRoute, pathOf } from '../routes/paths.js';

/**
 * Records every request in the log as it arrives, and its status as it is answered.
 * Registered before every other hook, so even rejected requests are recorded.
 */
export function registerRequestRecording(
  app: FastifyInstance,
  log: RequestLog,
  apiKeys: ReadonlySet<string>,
): void {
  app.addHook('onRequest', async (request) => {
    const route = classifyRoute(request.method, request.routeOptions.url);
    const { record, n } = log.add({
      method: request.method,
      path: pathOf(request.url),
      route,
      status: 'pending',
      at: Date.now(),
      authorized: checkBearer(request.headers.authorization, apiKeys) === undefined,
      ...presentHeader('idempotencyKey', request.headers['idempotency-key']),
      ...presentHeader('userAgent', request.headers['user-agent']),
    });
    setRequestContext(request, { record, route, n, dropResponse: false });
  });

  app.addHook('preValidation', async (request) => {
    const count = resultCountOf(request);
    if (count !== undefined) requestContext(request).record.resultCount = count;
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const context = requestContext(request);
    context.record.answeredAt = Date.now();
    if (context.dropResponse) {
      // A `drop: 'after'` fault: everything is handled and stored; the client loses the answer.
      context.record.status = 'dropped';
      request.raw.socket.destroy();
    } else {
      context.record.status = reply.statusCode;
    }
    return payload;
  });
}

function presentHeader<K extends string>(
  name: K,
  value: string | string[] | undefined,
): { [P in K]?: string } {
  if (value === undefined) return {};
  return { [name]: Array.isArray(value) ? value.join(', ') : value } as { [P in K]?: string };
}

function resultCountOf(request: FastifyRequest): number | undefined {
  if (requestContext(request).route !== 'submitResults') return undefined;
  const results = (request.body as { results?: unknown } | null | undefined)?.results;
  return Array.isArray(results) ? results.length : undefined;
}
