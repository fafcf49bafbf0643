import type { AddressInfo } from 'node:net';
import { buildApp } from './app.js';
import type { FaultHook } from './fault-hook.js';
import { Ledger } from './ledger.js';
import { resolveOptions, type ServerOptions } from './options.js';
import { RequestLog, type RequestRecord } from './request-log.js';
import type { Store } from './store.js';

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

function baseUrl({ address, family, port }: AddressInfo, scheme: 'http' | 'https'): string {
  const host = family === 'IPv6' ? `[${address}]` : address;
  return `${scheme}://${host}:${port}`;
}
