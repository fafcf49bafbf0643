import type { FastifyRequest } from 'fastify';
import type { RequestRecord } from './request-log.js';
import type { RouteName } from './routes/paths.js';

/** What the server's hooks learn about a request while it passes through them. */
export interface RequestContext {
  record: RequestRecord;
  route: RouteName;
  /** 0-based count of earlier requests to the same route. */
  n: number;
  /** Set by a `drop: 'after'` fault: handle the request, then destroy the socket. */
  dropResponse: boolean;
}

const contexts = new WeakMap<FastifyRequest, RequestContext>();

export function setRequestContext(request: FastifyRequest, context: RequestContext): void {
  contexts.set(request, context);
}

export function requestContext(request: FastifyRequest): RequestContext {
  const context = contexts.get(request);
  if (!context) throw new Error('request context missing: the request-log hook must run first');
  return context;
}
