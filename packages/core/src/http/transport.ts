import type { TlsMaterial } from '../options/tls-material.js';
import { NodeTransport } from './node-transport.js';
import { proxyFor } from './proxy.js';
import { UndiciTransport } from './undici-transport.js';

/**
 * What moves a request's bytes to the service and back (docs/design.md, "HTTP"). The client
 * keeps what is ours: timeouts, redaction, TLS failures, the attempt log; a transport only
 * posts a body and reads the answer, at most a bounded prefix of it.
 */
export interface Transport {
  post(url: URL, request: TransportRequest): Promise<TransportResponse>;
  /** Closes idle keep-alive connections, so the test process can exit at once. */
  close(): Promise<void>;
}

export interface TransportRequest {
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

/** How much of an answer is read: enough for any id or error message, never a 400 MB error page. */
export const MAX_SUCCESS_BODY_BYTES = 1024 * 1024;
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

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

/** Reads `body` up to `limit` bytes and stops reading there, dropping the rest of the answer. */
export async function readBounded(body: AsyncIterable<Buffer | string>, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    chunks.push(bytes.subarray(0, limit - size));
    size += bytes.length;
    // Leaving the loop destroys the stream, and with it the rest of a huge answer.
    if (size >= limit) break;
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function bodyLimit(status: number): number {
  return status >= 200 && status < 300 ? MAX_SUCCESS_BODY_BYTES : MAX_ERROR_BODY_BYTES;
}

export function flattenHeaders(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string | undefined> {
  const flat: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers)) {
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}
