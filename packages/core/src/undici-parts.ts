import { createRequire } from 'node:module';
import type { buildConnector as BuildConnector, Dispatcher, EnvHttpProxyAgent } from 'undici';

/** The few parts of undici the HTTP client uses. */
export interface UndiciParts {
  Agent: typeof import('undici').Agent;
  buildConnector: typeof BuildConnector;
  /** Loaded only when a proxy is configured: it brings ProxyAgent along. */
  EnvHttpProxyAgent: () => typeof EnvHttpProxyAgent;
  request(
    dispatcher: Dispatcher,
    url: string,
    options: Omit<Dispatcher.RequestOptions, 'origin' | 'path'>,
  ): Promise<Dispatcher.ResponseData>;
}

const require = createRequire(import.meta.url);

/**
 * undici's index loads fetch, WebSocket, caches and mocks besides the dispatcher: ~130 ms of
 * CPU in the test framework's main process, of which the reporter needs ~50. So the
 * dispatcher and `request` are loaded from undici's own files (bench/README.md, "Fixed
 * cost"). Should a release move them, the whole package is loaded instead.
 */
export async function loadUndiciParts(): Promise<UndiciParts> {
  try {
    const Agent = require('undici/lib/dispatcher/agent.js');
    const buildConnector = require('undici/lib/core/connect.js');
    const apiRequest = require('undici/lib/api/api-request.js');
    if (
      typeof Agent !== 'function' ||
      typeof buildConnector !== 'function' ||
      typeof apiRequest !== 'function'
    ) {
      throw new Error('undici has moved its files');
    }
    return {
      Agent,
      buildConnector,
      EnvHttpProxyAgent: () => require('undici/lib/dispatcher/env-http-proxy-agent.js'),
      request: (dispatcher, url, options) => {
        const { origin, pathname, search } = new URL(url);
        return apiRequest.call(dispatcher, { ...options, origin, path: pathname + search });
      },
    };
  } catch {
    const undici = await import('undici');
    return {
      Agent: undici.Agent,
      buildConnector: undici.buildConnector,
      EnvHttpProxyAgent: () => undici.EnvHttpProxyAgent,
      request: (dispatcher, url, options) => undici.request(url, { ...options, dispatcher }),
    };
  }
}
