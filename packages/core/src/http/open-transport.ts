import type { TlsMaterial } from '../options/tls-material.js';
import { NodeTransport } from './node-transport.js';
import { proxyFor } from './proxy.js';
import type { Transport } from './transport.js';
import { UndiciTransport } from './undici-transport.js';

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
