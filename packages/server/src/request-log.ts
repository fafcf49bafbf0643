import type { RouteName } from './routes/paths.js';

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
  idempotencyKey?: string;
  userAgent?: string;
  /** Length of the `results` array of a results submission whose body parsed. */
  resultCount?: number;
}

export class RequestLog {
  readonly records: RequestRecord[] = [];
  readonly #countByRoute = new Map<RouteName, number>();

  /** Records a new request and returns it with the number of earlier requests to its route. */
  add(record: RequestRecord): { record: RequestRecord; n: number } {
    const n = this.#countByRoute.get(record.route) ?? 0;
    this.#countByRoute.set(record.route, n + 1);
    this.records.push(record);
    return { record, n };
  }
}
