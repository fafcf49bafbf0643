import type { RouteName } from './routes/paths.js';

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
