import type { FastifyInstance, FastifyRequest } from 'fastify';
import { checkBearer } from './guards.js';
import type { AcceptedKeys } from './keys.js';
import { classifyRoute, pathOf, type RouteName } from './paths.js';

/** One request as the server received it. The API key itself is never recorded. */
export interface RequestRecord {
  method: string;
  /** Path without the query string. */
  path: string;
  route: RouteName;
  /** The status answered; 'dropped' when the socket was destroyed instead; 'pending' until then. */
  status: number | 'dropped' | 'pending';
  /** When the request arrived, ms since the epoch. */
  at: number;
  /** When the answer was sent (or the socket dropped), ms since the epoch. */
  answeredAt?: number;
  /** Whether the request carried a valid bearer key. */
  authorized: boolean;
  /** Which connection it came on, numbered as the server accepted them: keep-alive shows as one number for many requests. */
  connection: number;
  idempotencyKey?: string;
  userAgent?: string;
  /** Length of the `results` array of a results submission whose body parsed. */
  resultCount?: number;
}

/** The latest requests: at least `size` of them, never twice as many (the oldest go first). */
export class RequestLog {
  readonly records: RequestRecord[] = [];
  readonly #countByRoute = new Map<RouteName, number>();

  constructor(private readonly size: number) {}

  /** Records a new request and returns it with the number of earlier requests to its route. */
  add(record: RequestRecord): { record: RequestRecord; n: number } {
    const n = this.#countByRoute.get(record.route) ?? 0;
    this.#countByRoute.set(record.route, n + 1);
    this.records.push(record);
    // In place (the array is handed out as `requests`), and rarely: a splice per request would copy the log each time.
    if (this.records.length >= this.size * 2) this.records.splice(0, this.records.length - this.size);
    return { record, n };
  }
}

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

export function requestContext(request: FastifyRequest): RequestContext {
  const context = contexts.get(request);
  if (!context) throw new Error('request context missing: the request-log hook must run first');
  return context;
}

/**
 * Records every request in the log as it arrives, and its status as it is answered.
 * Registered before every other hook, so even rejected requests are recorded.
 */
export function registerRequestRecording(
  app: FastifyInstance,
  log: RequestLog,
  keys: { write: AcceptedKeys; read: AcceptedKeys },
): void {
  const connections = new WeakMap<object, number>();
  let accepted = 0;
  app.addHook('onRequest', async (request) => {
    const route = classifyRoute(request.method, request.routeOptions.url);
    const socket = request.raw.socket;
    if (!connections.has(socket)) connections.set(socket, ++accepted);
    const { record, n } = log.add({
      method: request.method,
      path: pathOf(request.url),
      route,
      status: 'pending',
      at: Date.now(),
      // Valid for what the method needs: a read key authorizes a GET, not a POST.
      authorized:
        checkBearer(
          request.headers.authorization,
          request.method === 'GET' || request.method === 'HEAD' ? keys.read : keys.write,
        ) === undefined,
      connection: connections.get(socket)!,
      ...presentHeader('idempotencyKey', request.headers['idempotency-key']),
      ...presentHeader('userAgent', request.headers['user-agent']),
    });
    contexts.set(request, { record, route, n, dropResponse: false });
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
