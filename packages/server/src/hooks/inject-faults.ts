import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../errors.js';
import type { FaultAction, FaultHook, FaultRequest } from '../fault-hook.js';
import { type RequestContext, requestContext } from '../request-context.js';
import { pathOf } from '../routes/paths.js';

/** The fault hook in force; tests swap it while the server runs. */
export interface FaultSwitch {
  current: FaultHook | undefined;
}

/**
 * Consults the fault hook once per request, in preValidation: after the guards and
 * body parsing (so the hook sees the parsed body), before the batch-size limit, schema
 * validation and handling. A delay therefore holds no idempotency reservation: a
 * client that times out and retries is served by the retry, and the late original
 * is then replayed the stored answer instead of storing twice.
 */
export function registerFaultInjection(
  app: FastifyInstance,
  faults: FaultSwitch,
  closing: AbortSignal,
): void {
  app.addHook('preValidation', async (request, reply) => {
    const hook = faults.current;
    if (!hook) return;
    const context = requestContext(request);
    const action = hook(faultRequest(request, context));
    if (!action) return;
    if (action.delayMs !== undefined && action.delayMs > 0) {
      const waited = await sleep(action.delayMs, true, { signal: closing }).catch(() => false);
      // The server is closing: the delayed request ends the way an unanswered one would.
      if (!waited) return dropBeforeHandling(request, reply, context);
    }
    if (action.drop === 'before') return dropBeforeHandling(request, reply, context);
    if (action.drop === 'after') context.dropResponse = true;
    if (action.headers) reply.headers(action.headers);
    if (action.status !== undefined || action.body !== undefined) return answerInstead(reply, action);
  });
}

function faultRequest(request: FastifyRequest, context: RequestContext): FaultRequest {
  const runId = (request.params as { id?: string } | undefined)?.id;
  return {
    method: request.method,
    path: pathOf(request.url),
    route: context.route,
    ...(runId === undefined ? {} : { runId }),
    n: context.n,
    headers: { ...request.headers },
    body: request.body,
  };
}

function dropBeforeHandling(request: FastifyRequest, reply: FastifyReply, context: RequestContext) {
  context.record.status = 'dropped';
  reply.hijack();
  request.raw.socket.destroy();
  return reply;
}

function answerInstead(reply: FastifyReply, action: FaultAction) {
  const status = action.status ?? 200;
  const body =
    action.body ?? (status >= 400 ? errorBody('injected_fault', `fault injected: HTTP ${status}`) : '');
  return reply.code(status).send(body);
}
