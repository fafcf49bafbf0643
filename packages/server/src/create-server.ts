import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerAttachments } from './api/attachments.js';
import { InFlightWrites } from './api/idempotent-write.js';
import { registerQuarantineApi } from './api/quarantine.js';
import { registerReadApi } from './api/read.js';
import { registerTextInAddresses } from './api/storable-text.js';
import {
  announcement,
  registerCompleteRun,
  registerCreateRun,
  registerSubmitResults,
  type Writes,
} from './api/write.js';
import { AttachmentLedger } from './attachments/attachment-ledger.js';
import { DatabaseBlobs, FolderBlobs } from './attachments/blob-store.js';
import { registerCompression } from './compression.js';
import { redactDatabaseUrl } from './database/database-url.js';
import { migrate } from './database/migrations.js';
import { openDatabase } from './database/open-database.js';
import { isDiskFull, registerErrorAnswers } from './errors.js';
import { type FaultHook, type FaultSwitch, registerFaultInjection } from './faults.js';
import { registerGuards, registerJsonBody } from './guards.js';
import { KeyRing } from './keys.js';
import { type ImportOutcome, importDataFile } from './ledger/import-data-file.js';
import { Retention } from './ledger/retention.js';
import { SqlStore } from './ledger/sql-store.js';
import { type HttpsOptions, type ResolvedOptions, resolveOptions, type ServerOptions } from './options.js';
import { registerPageAccess } from './pages/access.js';
import { registerQuarantinePages } from './pages/quarantine-routes.js';
import { registerPages } from './pages/routes.js';
import { registerSecurityHeaders } from './pages/security-headers.js';
import { registerPlans } from './plans/plan-route.js';
import { RequestLog, type RequestRecord, registerRequestRecording } from './request-log.js';

export interface TestrunServer {
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:41234. */
  url: string;
  /** Closes promptly, even with keep-alive clients connected; every acknowledged write is on disk. */
  close(): Promise<void>;
  /** What the server stores, read from its database. */
  store: SqlStore;
  /** Where the data is: the data folder, the database URL without its password, or `memory`. */
  dataLocation: string;
  /** What the older data file (`dataFile`) gave on this start; undefined without one. */
  imported: ImportOutcome | undefined;
  /** The requests received, in arrival order: at least the latest `requestLogSize`, at most twice that. */
  requests: RequestRecord[];
  /** Replaces the fault hook; undefined removes it. */
  setFaults(hook: FaultHook | undefined): void;
}

/**
 * No space to open or migrate the database at start (a full disk, or a full PostgreSQL). Each
 * migration is one transaction, so none is kept half done: once space is freed the next start
 * goes on from the last whole one.
 */
export class StorageFullAtStartError extends Error {
  readonly code = 'storage_full';
  constructor(where: string, cause: unknown) {
    super(
      `${where}: no space left to open and migrate the database: free space there, then start the server again (nothing half done was kept)`,
      { cause },
    );
    this.name = 'StorageFullAtStartError';
  }
}

function startError(error: unknown, where: string): unknown {
  return error instanceof Error && isDiskFull(error) ? new StorageFullAtStartError(where, error) : error;
}

/** Starts a server, listening once the returned promise resolves. */
export async function createServer(serverOptions?: ServerOptions): Promise<TestrunServer> {
  const options = resolveOptions(serverOptions);
  const database = await openDatabase(options).catch((error: unknown) => {
    throw startError(
      error,
      options.database === undefined ? resolve(options.data ?? '.') : redactDatabaseUrl(options.database),
    );
  });
  let retention: Retention | undefined;
  let store: SqlStore;
  let files: AttachmentLedger | undefined;
  let imported: ImportOutcome | undefined;
  const log = new RequestLog(options.requestLogSize);
  const faults = { current: options.faults };
  const closing = new AbortController();
  let app: FastifyInstance;
  try {
    await migrate(database.db);
    store = new SqlStore(database.db, options.statuses);
    // Attached files: beside the embedded database in its data folder, else in the database itself.
    if (options.attachments) {
      const blobs = database.folder
        ? new FolderBlobs(join(database.folder, 'attachments'))
        : new DatabaseBlobs(database.db);
      files = new AttachmentLedger(store, blobs);
    }
    if (options.dataFile !== undefined) imported = await importDataFile(store, options.dataFile);
    app = buildApp({ options, store, files, log, faults, closing: closing.signal });
    await app.listen({ host: options.host, port: options.port });
  } catch (error) {
    await database.close();
    throw startError(error, database.where);
  }
  if (options.keepDays !== undefined) retention = Retention.start(store, options.keepDays, undefined, files);

  let closed: Promise<void> | undefined;
  const close = async () => {
    // Aborting ends fault delays, so a delayed request cannot outlive the server.
    closing.abort();
    await retention?.stop();
    await closeGracefully(app, options.closeTimeoutMs);
    // Every write was answered after its commit; this waits for any still under way.
    await database.close();
  };

  return {
    url: baseUrl(app.server.address() as AddressInfo, options.https ? 'https' : 'http'),
    close: () => {
      closed ??= close();
      return closed;
    },
    store,
    dataLocation: database.where,
    imported,
    requests: log.records,
    setFaults: (hook) => {
      faults.current = hook;
    },
  };
}

/**
 * Stops listening and lets answers under way finish for up to `timeoutMs`, then cuts what is
 * left: a service stopped for a deploy should not cut a list half streamed or a write's answer.
 * A keep-alive connection whose answer finished stays open until its client hangs up, so idle
 * connections are swept while it waits.
 */
async function closeGracefully(app: FastifyInstance, timeoutMs: number): Promise<void> {
  const sweep = setInterval(() => app.server.closeIdleConnections(), 50);
  const cut = setTimeout(() => app.server.closeAllConnections(), timeoutMs);
  try {
    await app.close();
  } finally {
    clearInterval(sweep);
    clearTimeout(cut);
  }
}

interface AppParts {
  options: ResolvedOptions;
  store: SqlStore;
  /** Attached files, unless the server was started without the extension. */
  files: AttachmentLedger | undefined;
  log: RequestLog;
  faults: FaultSwitch;
  closing: AbortSignal;
}

/**
 * Assembles the Fastify app. A request meets, in order: the request log, the security
 * headers, the guards (401, 415), the pages' key (a sign-in redirect or 401), body reading (413 by size, 400 bad JSON), the fault hook, the batch limit
 * (413 by count), schema validation (400) and the route; its answer leaves through compression
 * (br or gzip, when the client accepts one).
 */
function buildApp({ options, store, files, log, faults, closing }: AppParts): FastifyInstance {
  // Node takes the request timeouts when the server is made (set later, as Fastify sets
  // them, a request still had 60 s: Node's default headersTimeout), and checks them every
  // connectionsCheckingInterval (30 s by default).
  const checking = {
    requestTimeout: options.clientTimeoutMs,
    headersTimeout: Math.min(60_000, options.clientTimeoutMs),
    connectionsCheckingInterval: Math.min(5_000, Math.ceil(options.clientTimeoutMs / 4)),
  };
  const app = Fastify({
    logger: false,
    ...(options.https ? { https: { ...tlsOptions(options.https), ...checking } } : { http: checking }),
    bodyLimit: options.maxBodyBytes,
    // A request must arrive whole within clientTimeoutMs (a body that never ends is 408), and a
    // connection silent that long is closed (one that never sends a byte meets no other limit).
    requestTimeout: options.clientTimeoutMs,
    connectionTimeout: options.clientTimeoutMs,
    // Idle keep-alive connections close at once; answers under way finish (closeGracefully).
    forceCloseConnections: 'idle',
    // request.ip: the client a trusted proxy names in X-Forwarded-For (the sign-in limiter's key).
    ...(options.trustProxy.length > 0 ? { trustProxy: [...options.trustProxy] } : {}),
    ajv: {
      // Fastify's defaults coerce types and silently strip unknown fields: a strict
      // server must reject both.
      customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: false, allErrors: false },
    },
  });

  // Writing needs an API key; reading (the GET API, the pages) takes a read key too.
  const writeKeys = new KeyRing(options.apiKeys);
  const readKeys = new KeyRing([...options.apiKeys, ...options.readKeys]);

  const keys = { write: writeKeys, read: readKeys };

  registerRequestRecording(app, log, keys);
  registerSecurityHeaders(app);
  registerCompression(app);
  registerGuards(app, keys);
  registerPageAccess(app, { access: options.pageAccess, keys: readKeys, https: options.https !== undefined });
  registerJsonBody(app);
  registerTextInAddresses(app);
  registerFaultInjection(app, faults, closing);

  const writes: Writes = { store, inFlight: new InFlightWrites() };
  registerCreateRun(app, writes, options.runIds, announcement(options));
  registerSubmitResults(app, writes, options);
  registerCompleteRun(app, writes, options.abandonedAfterMs);
  if (options.shardPlans) registerPlans(app, store, options.abandonedAfterMs);
  if (files) {
    registerAttachments(app, files, {
      maxFileBytes: options.maxAttachmentBytes,
      maxRunBytes: options.maxRunAttachmentBytes,
    });
  }
  registerReadApi(app, store, options.abandonedAfterMs, files);
  registerQuarantineApi(app, writes);
  registerPages(app, store, options.abandonedAfterMs, files);
  registerQuarantinePages(app, store, keys);

  registerErrorAnswers(app, options.maxBodyBytes);
  return app;
}

function tlsOptions({ cert, key, clientCa }: HttpsOptions) {
  return clientCa ? { cert, key, ca: clientCa, requestCert: true, rejectUnauthorized: true } : { cert, key };
}

function baseUrl({ address, family, port }: AddressInfo, scheme: 'http' | 'https'): string {
  const host = family === 'IPv6' ? `[${address}]` : address;
  return `${scheme}://${host}:${port}`;
}
