import { HttpClient } from '../http/client.js';
import type { Transport } from '../http/transport.js';
import type { TlsMaterial } from '../options/tls-material.js';
import type { RunPayload } from '../types.js';
import { type CreateRunOutcome, createRun } from './create-run.js';
import { Deadline } from './deadline.js';
import type { RetryPolicy } from './send-with-retries.js';

export interface ServiceInit extends RetryPolicy {
  baseUrl: string;
  apiKey: string;
  tls?: TlsMaterial | undefined;
  runIdPath?: string | undefined;
  userAgent: string;
  env: NodeJS.ProcessEnv;
  /** Called once per attempt, for debug logging. */
  onAttempt?: ((line: string) => void) | undefined;
  transport?: Transport;
  /** Sent with every request besides the spec's (http/client.ts). */
  headers?: Record<string, string> | undefined;
}

/**
 * One service, as a run session, a replay and `testrun create-run` each talk to it: the HTTP
 * client, the one deadline every request and retry keeps to, and create-run with the tags
 * found along the way merged in. Closing stops the deadline's timer and the connections, so
 * nothing keeps the process alive.
 */
export interface Service {
  readonly http: HttpClient;
  readonly deadline: Deadline;
  /** `moreTags`: found since (CI tags), merged in; `runIdPath`: where this answer keeps the id, if not where the service's does. */
  createRun(
    run: RunPayload,
    idempotencyKey: string,
    more?: { moreTags?: readonly string[]; runIdPath?: string | undefined },
  ): Promise<CreateRunOutcome>;
  close(): Promise<void>;
}

export function openService(init: ServiceInit): Service {
  const http = new HttpClient(init);
  const deadline = new Deadline();
  return {
    http,
    deadline,
    createRun: (run, idempotencyKey, { moreTags = [], runIdPath = init.runIdPath } = {}) =>
      createRun(http, withTags(run, moreTags), idempotencyKey, { ...init, runIdPath }, deadline),
    async close() {
      deadline.dispose();
      await http.close();
    },
  };
}

/** The run with `more` tags after its own, each once. */
export function withTags(run: RunPayload, more: readonly string[]): RunPayload {
  return more.length === 0 ? run : { ...run, tags: [...new Set([...run.tags, ...more])] };
}
