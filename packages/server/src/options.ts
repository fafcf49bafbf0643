import { isIP } from 'node:net';
import type { FaultHook } from './faults.js';
import { DEFAULT_ABANDONED_AFTER_MS } from './ledger/run-state.js';
import { defaultPageAccess, type PageAccess } from './pages/access.js';

export interface ServerOptions {
  /** Accepted bearer keys. Default: [DEFAULT_API_KEY]. */
  apiKeys?: string[];
  /** Default: '127.0.0.1'. */
  host?: string;
  /** Default: 0, an ephemeral port; `TestrunServer.url` has the real one. */
  port?: number;
  /**
   * A folder for the embedded database (SQLite, `testrun.db`): everything acknowledged is
   * kept there and read on the next start. Default: an in-memory database, gone on close.
   */
  data?: string;
  /**
   * A PostgreSQL URL (`postgres://user:password@host:5432/db`): the same schema and queries
   * on a team's database, which several servers may share. Takes the place of `data`.
   */
  database?: string;
  /**
   * The ndjson data file of an older testrun server: imported into the database once (the
   * import is recorded; the file is left as it is). Without `data` or `database`, the
   * database goes in the folder `<dataFile>.d`.
   */
  dataFile?: string;
  /** Runs created more than this many days ago are removed, a few at a time, in the background. Default: kept. */
  keepDays?: number;
  /** More results than this in one request is answered with 413. Default: 1000. */
  maxResultsPerRequest?: number;
  /** A larger request body is answered with 413. Default: 5 MiB. */
  maxBodyBytes?: number;
  /**
   * Say both limits in create-run's answer (`results: { maxResults, maxBytes }`), so reporters
   * split a batch before sending rather than after a 413. Default true; false makes a server
   * that, as the spec shows, leaves them to its 413s.
   */
  announceResultLimits?: boolean;
  /** Allowed result statuses. Default: DEFAULT_STATUSES. */
  statuses?: string[];
  /** Test hook that can answer, delay or drop any request; see FaultHook. */
  faults?: FaultHook;
  /** Serve HTTPS with this certificate (PEM text); with `clientCa`, clients must present a certificate it signed. */
  https?: HttpsOptions;
  /**
   * How new runs are numbered: 'uuid' (default), or 'integer': whole numbers past 2^53,
   * answered as JSON numbers, as services with 64-bit ids answer (a client that reads them
   * as doubles rounds them into the id of another run).
   */
  runIds?: 'uuid' | 'integer';
  /** Keys that open the pages and the read API (GET), but cannot write. Default: none. */
  readKeys?: string[];
  /**
   * 'key': the pages ask for a read key or an API key; 'open': anyone who reaches the port
   * sees them. Default: 'open' on a loopback host without read keys, else 'key'.
   */
  pageAccess?: PageAccess;
  /** A run never completed that received nothing for this long is shown as abandoned. Default: one hour. */
  abandonedAfterMs?: number;
  /**
   * Announce and accept the `failure-details` extension (why a test failed). Default: true;
   * false makes a server that knows only the spec's four fields, and refuses `details`.
   */
  failureDetails?: boolean;
  /**
   * Announce the `complete-run` extension, so that reporters complete the runs they create
   * (`PATCH /api/v1/runs/{id}`, which this server answers either way). Default: true; false
   * makes a server that announces nothing of it, as a spec-only service.
   */
  completeRun?: boolean;
  /**
   * Announce the `read-runs` extension: a run and its results may be read back with the API
   * key (`GET /api/v1/runs/{id}`, `…/results`), which the process that ends a shared run
   * reads its CI summary from. Default: true; false makes a server that announces no reads
   * (they still answer), as a spec-only service.
   */
  readRuns?: boolean;
  /**
   * Announce the `quarantine` extension: reporters read the run's quarantined tests (`GET
   * /api/v1/runs/{id}/quarantine`) and mark a quarantined test's failure `quarantined`, which
   * the results route then takes. Default: true; false makes a server that announces none and
   * refuses the field (the quarantine API and pages still answer).
   */
  quarantine?: boolean;
  /**
   * Make shard plans (`POST /api/v1/plans`) and announce the `shard-plans` extension. Default:
   * true; false makes a server without the operation (404), as a spec-only service, so every
   * shard splits its files by size.
   */
  shardPlans?: boolean;
  /**
   * Announce and accept the `attachments` extension: results name files (screenshots, traces,
   * videos, logs) whose bytes are uploaded by hash and shown under the failed tests. Default:
   * true; false makes a server that refuses `attachments` and announces none.
   */
  attachments?: boolean;
  /** A larger attached file is answered 413 (`attachment_too_large`). Default: 100 MiB. */
  maxAttachmentBytes?: number;
  /** A file that would take a run's files past this many bytes is answered 413 (`run_attachments_full`). Default: 1 GiB. */
  maxRunAttachmentBytes?: number;
  /**
   * How many of the latest requests `TestrunServer.requests` keeps at least (tests and benches
   * read it; never twice as many). Default: 10,000, so a server that runs for months does not
   * grow with its traffic.
   */
  requestLogSize?: number;
  /**
   * How long close() lets answers under way finish (a long list streaming out, a write
   * committing) before it cuts their connections. Default: 5,000 ms.
   */
  closeTimeoutMs?: number;
  /**
   * How long a client may take to send a whole request, and a connection may stay silent (no
   * byte either way): a body that never ends is answered 408 and its connection closed, an
   * idle connection is closed. Without it both were held for ever, and enough of them take
   * every file descriptor the server has. Default: 60,000 ms.
   */
  clientTimeoutMs?: number;
  /**
   * Proxies whose X-Forwarded-For names the client: addresses or CIDR ranges. Behind a reverse
   * proxy every request comes from the proxy, so without it the sign-in limiter counts everyone's
   * wrong keys as one address's. Default: none (X-Forwarded-For is ignored).
   */
  trustProxy?: string[];
}

export interface HttpsOptions {
  cert: string;
  key: string;
  /** Require a client certificate signed by this CA (mutual TLS). */
  clientCa?: string;
}

export const DEFAULT_REQUEST_LOG_SIZE = 10_000;
export const DEFAULT_MAX_ATTACHMENT_BYTES = 100 * 1024 * 1024;
export const DEFAULT_MAX_RUN_ATTACHMENT_BYTES = 1024 * 1024 * 1024;
export const DEFAULT_CLOSE_TIMEOUT_MS = 5_000;
export const DEFAULT_CLIENT_TIMEOUT_MS = 60_000;
export const DEFAULT_API_KEY = 'testrun-local-key';
export const DEFAULT_STATUSES: readonly string[] = ['passed', 'failed', 'skipped', 'todo'];

export interface ResolvedOptions {
  apiKeys: ReadonlySet<string>;
  host: string;
  port: number;
  data: string | undefined;
  database: string | undefined;
  dataFile: string | undefined;
  keepDays: number | undefined;
  maxResultsPerRequest: number;
  maxBodyBytes: number;
  announceResultLimits: boolean;
  statuses: readonly string[];
  faults: FaultHook | undefined;
  https: HttpsOptions | undefined;
  runIds: 'uuid' | 'integer';
  readKeys: readonly string[];
  pageAccess: PageAccess;
  abandonedAfterMs: number;
  failureDetails: boolean;
  completeRun: boolean;
  readRuns: boolean;
  quarantine: boolean;
  shardPlans: boolean;
  attachments: boolean;
  maxAttachmentBytes: number;
  maxRunAttachmentBytes: number;
  requestLogSize: number;
  closeTimeoutMs: number;
  clientTimeoutMs: number;
  trustProxy: readonly string[];
}

export function resolveOptions(options: ServerOptions = {}): ResolvedOptions {
  const apiKeys = options.apiKeys ?? [DEFAULT_API_KEY];
  const statuses = options.statuses ?? DEFAULT_STATUSES;
  requireNonEmptyStrings('apiKeys', apiKeys);
  requireNonEmptyStrings('statuses', statuses);
  const readKeys = options.readKeys ?? [];
  if (readKeys.length > 0) requireNonEmptyStrings('readKeys', readKeys);
  const host = options.host ?? '127.0.0.1';
  return {
    apiKeys: new Set(apiKeys),
    host,
    port: requireInteger('port', options.port ?? 0, 0),
    data:
      options.data ??
      (options.database === undefined && options.dataFile !== undefined
        ? `${options.dataFile}.d`
        : undefined),
    database: options.database,
    dataFile: options.dataFile,
    keepDays: options.keepDays === undefined ? undefined : requirePositive('keepDays', options.keepDays),
    maxResultsPerRequest: requireInteger('maxResultsPerRequest', options.maxResultsPerRequest ?? 1000, 1),
    announceResultLimits: options.announceResultLimits ?? true,
    maxBodyBytes: requireInteger('maxBodyBytes', options.maxBodyBytes ?? 5 * 1024 * 1024, 1),
    statuses: [...statuses],
    faults: options.faults,
    https: options.https,
    runIds: options.runIds ?? 'uuid',
    readKeys: [...readKeys],
    pageAccess: options.pageAccess ?? defaultPageAccess(host, readKeys),
    abandonedAfterMs: requireInteger(
      'abandonedAfterMs',
      options.abandonedAfterMs ?? DEFAULT_ABANDONED_AFTER_MS,
      1,
    ),
    failureDetails: options.failureDetails ?? true,
    completeRun: options.completeRun ?? true,
    readRuns: options.readRuns ?? true,
    quarantine: options.quarantine ?? true,
    shardPlans: options.shardPlans ?? true,
    attachments: options.attachments ?? true,
    maxAttachmentBytes: requireInteger(
      'maxAttachmentBytes',
      options.maxAttachmentBytes ?? DEFAULT_MAX_ATTACHMENT_BYTES,
      1,
    ),
    maxRunAttachmentBytes: requireInteger(
      'maxRunAttachmentBytes',
      options.maxRunAttachmentBytes ?? DEFAULT_MAX_RUN_ATTACHMENT_BYTES,
      1,
    ),
    requestLogSize: requireInteger('requestLogSize', options.requestLogSize ?? DEFAULT_REQUEST_LOG_SIZE, 1),
    closeTimeoutMs: requireInteger('closeTimeoutMs', options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS, 0),
    clientTimeoutMs: requireInteger(
      'clientTimeoutMs',
      options.clientTimeoutMs ?? DEFAULT_CLIENT_TIMEOUT_MS,
      1,
    ),
    trustProxy: requireProxyAddresses(options.trustProxy ?? []),
  };
}

function requireNonEmptyStrings(name: string, values: readonly string[]): void {
  if (values.length === 0 || values.some((value) => typeof value !== 'string' || value === '')) {
    throw new TypeError(`${name} must be a non-empty array of non-empty strings`);
  }
}

/** An IP address or a CIDR range, as Fastify's trustProxy takes them. */
export function isProxyAddress(value: string): boolean {
  const [address = '', prefix, ...rest] = String(value).split('/');
  const bits = isIP(address) === 4 ? 32 : isIP(address) === 6 ? 128 : 0;
  const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits);
  return bits > 0 && prefixOk && rest.length === 0;
}

/** Named here, not deep inside Fastify's proxy-addr. */
function requireProxyAddresses(values: readonly string[]): string[] {
  const wrong = values.find((value) => !isProxyAddress(value));
  if (wrong !== undefined) {
    throw new TypeError(
      `trustProxy must list IP addresses or CIDR ranges, e.g. ['10.0.0.5', '10.1.0.0/16'], got "${String(wrong)}"`,
    );
  }
  return [...values];
}

function requirePositive(name: string, value: number): number {
  if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value)) {
    throw new TypeError(`${name} must be a number of days > 0, got ${value}`);
  }
  return value;
}

function requireInteger(name: string, value: number, min: number): number {
  if (!Number.isInteger(value) || value < min) {
    throw new TypeError(`${name} must be an integer >= ${min}, got ${value}`);
  }
  return value;
}
