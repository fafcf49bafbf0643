import type { ResolvedConfig } from '../options/config.js';
import { randomUUID } from '../random-uuid.js';
import { type SendOutcome, sendWithRetries } from './send-with-retries.js';
import { openService } from './service.js';

export interface ServiceRequest {
  method: 'GET' | 'POST';
  /** From the base URL: `/api/v1/quarantines?project=web`. */
  path: string;
  /** JSON text; none for a GET. */
  body?: string;
  userAgent: string;
  env?: NodeJS.ProcessEnv;
}

/**
 * One request to the service with everything a reporter's requests have (the key, TLS, a
 * proxy, retries with one Idempotency-Key, the `flushTimeout` deadline), for a command that
 * is not a reporter (`testrun quarantine`). Opens the service's connections and closes them.
 */
export async function requestService(config: ResolvedConfig, request: ServiceRequest): Promise<SendOutcome> {
  const service = openService({ ...config, userAgent: request.userAgent, env: request.env ?? process.env });
  service.deadline.start(config.flushTimeout);
  try {
    return await sendWithRetries(
      service.http,
      request.path,
      request.body ?? '',
      randomUUID(),
      config,
      service.deadline,
      { method: request.method },
    );
  } finally {
    await service.close();
  }
}
