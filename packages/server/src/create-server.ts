import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerReadApi } from './api/read.js';
import { registerCompleteRun, registerCreateRun, registerSubmitResults } from './api/write.js';
import { registerCompression } from './compression.js';
import { registerErrorAnswers } from './errors.js';
import { type FaultHook, type FaultSwitch, registerFaultInjection } from './faults.js';
import { registerGuards, registerJsonBody } from './guards.js';
import { KeyRing } from './keys.js';
import { Ledger } from './ledger/ledger.js';
import type { Store } from './ledger/store.js';
import { type HttpsOptions, type ResolvedOptions, resolveOptions, type ServerOptions } from './options.js';
import { registerPageAccess } from './pages/access.js';
import { registerPages } from './pages/routes.js';
import { registerSecurityHeaders } from './pages/security-headers.js';
import { RequestLog, type RequestRecord, registerRequestRecording } from './request-log.js';

export interface TestrunServer {
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:41234. */
  url: string;
  /** Closes promptly, even with keep-alive clients connected; every acknowledged write is on disk. */
  close(): Promise<void>;
  store: Store;
  /** Every request received, in arrival order. */
  requests: RequestRecord[];
  /** Replaces the fault hook; undefined removes it. */
  setFaults(hook: FaultHook | undefined): void;
}

/** Starts a server, listening once the returned promise resolves. */
export async function createServer(serverOptions?: ServerOptions): Promise<TestrunServer> {
  const options = resolveOptions(serverOptions);
  const ledger = await Ledger.open(options.dataFile);
  const log = new RequestLog();
  const faults = { current: options.faults };
  const closing = new AbortController();
  const app = buildApp({ options, ledger, log, faults, closing: closing.signal });

  await app.listen({ host: options.host, port: options.port });

  let closed: Promise<void> | undefined;
  const close = async () => {
    // Aborting ends fault delays, so a delayed request cannot outlive the server.
    closing.abort();
    await app.close();
    await ledger.settled();
  };

  return {
    url: baseUrl(app.server.address() as AddressInfo, options.https ? 'https' : 'http'),
    close: () => {
      closed ??= close();
      return closed;
    },
    store: ledger.store,
    requests: log.records,
    setFaults: (hook) => {
      faults.current = hook;
    },
  };
}

interface AppParts {
  options: ResolvedOptions;
  ledger: Ledger;
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
function buildApp({ options, ledger, log, faults, closing }: AppParts): FastifyInstance {
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
  registerFaultInjection(app, faults, closing);

  registerCreateRun(app, ledger, options.runIds, options.failureDetails);
  registerSubmitResults(app, ledger, options);
  registerCompleteRun(app, ledger, options.statuses, options.abandonedAfterMs);
  registerReadApi(app, ledger, options.statuses, options.abandonedAfterMs);
  registerPages(app, ledger, options.statuses, options.abandonedAfterMs);

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
