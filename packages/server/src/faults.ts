import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from './errors.js';
import { pathOf, type RouteName } from './paths.js';
import { type RequestContext, requestContext } from './request-log.js';

export interface FaultRequest {
  method: string;
  path: string;
  route: RouteName;
  runId?: string;
  /** 0-based count of earlier requests to the same route. */
  n: number;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body of a POST; undefined otherwise. */
  body: unknown;
}

export interface FaultAction {
  /** With `status` or `body`, the server answers this instead of handling the request. */
  status?: number;
  headers?: Record<string, string>;
  /** An object is sent as JSON, a string as it is. */
  body?: string | object;
  /** Wait this long before handling or answering; the client may time out meanwhile. */
  delayMs?: number;
  /**
   * Destroy the socket without a response. 'before': nothing is handled or stored.
   * 'after': the request is handled and stored, then the response is lost.
   */
  drop?: 'before' | 'after';
}

/**
 * Called for every request that passed the bearer key, content-type and body-size
 * checks and whose JSON body parsed, before the batch-size limit, schema validation and
 * handling. Returning nothing lets the request through untouched.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: void lets a hook be a function that returns nothing at all.
export type FaultHook = (request: FaultRequest) => FaultAction | undefined | void;

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
    // An upload's body is its bytes, still arriving: not for the hook.
    body: context.route === 'uploadAttachment' ? undefined : request.body,
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
