import type { TlsMaterial } from '../options/tls-material.js';
import { NodeTransport } from './node-transport.js';
import { proxyFor } from './proxy.js';
import { UndiciTransport } from './undici-transport.js';

/**
 * What moves a request's bytes to the service and back (docs/design.md, "HTTP"). The client
 * keeps what is ours: timeouts, redaction, TLS failures, the attempt log; a transport only
 * sends a body and reads the answer, at most a bounded prefix of it.
 */
export interface Transport {
  send(url: URL, request: TransportRequest): Promise<TransportResponse>;
  /** Closes idle keep-alive connections, so the test process can exit at once. */
  close(): Promise<void>;
}

export interface TransportRequest {
  /** POST when absent: every request but completing a run (`completeRun`) is one. */
  method?: string;
  headers: Record<string, string>;
  body: string;
  /** Aborts the request: the attempt's timeout, or the flush deadline. */
  signal: AbortSignal;
}

export interface TransportResponse {
  status: number;
  /** Header names lower-cased; repeated headers joined with `, `. */
  headers: Record<string, string | undefined>;
  body: string;
}

/**
 * The transport for one session, chosen once from the environment: undici through the
 * proxy HTTPS_PROXY/HTTP_PROXY name for this address (NO_PROXY honoured), else a direct
 * connection over node:http/node:https, which costs a fraction of undici's CPU at start
 * (its parser is WebAssembly that V8 compiles and optimizes in every process: bench figure 7b).
 */
export function openTransport(
  baseUrl: string,
  env: NodeJS.ProcessEnv,
  tls: TlsMaterial | undefined,
): Transport {
  const url = new URL(baseUrl);
  const proxy = proxyFor(url, env);
  return proxy ? new UndiciTransport(proxy, tls) : new NodeTransport(url, tls);
}
