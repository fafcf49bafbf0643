import type { TestrunOptions } from '@testrun/core';
import { startForwardProxy } from './proxy.js';
import { createReporter, type ReporterUnderTest } from './reporter.js';

/**
 * The two ways core's HTTP client reaches a service (packages/core/src/http/transport.ts):
 * node:http on a direct connection, undici through a proxy. Tests of behaviour on the wire
 * run over each (`describe.each(TRANSPORTS)`).
 */
export interface TransportUnderTest {
  name: string;
  /** The address and environment with which a reporter reaches the service at `url` this way. */
  reach(url: string): Promise<{ url: string; env: Record<string, string> }>;
}

/** A core reporter (see createReporter) aimed at the service at `url` the way `transport` reaches it. */
export async function createReporterOver(
  transport: TransportUnderTest,
  url: string,
  apiKey: string,
  options: TestrunOptions = {},
): Promise<ReporterUnderTest> {
  const route = await transport.reach(url);
  return createReporter(route.url, apiKey, options, route.env);
}

export const TRANSPORTS: readonly TransportUnderTest[] = [
  { name: 'node:http, direct', reach: async (url) => ({ url, env: {} }) },
  {
    name: 'undici, through a proxy',
    reach: async (url) => {
      const proxy = await startForwardProxy();
      // The proxy is used for 127.0.0.1 too: the service is addressed by a name only the proxy resolves.
      return { url: url.replace('127.0.0.1', 'localhost'), env: { HTTP_PROXY: proxy.url } };
    },
  },
];
