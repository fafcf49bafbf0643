import type { Deadline } from './deadline.js';
import { RunIdError } from './errors.js';
import type { HttpClient } from './http-client.js';
import { extractRunId } from './run-id.js';
import { type RetryPolicy, type SendOutcome, sendWithRetries } from './send-with-retries.js';
import type { RunPayload } from './spool.js';

export type CreateRunOutcome =
  | { kind: 'ok'; runId: string }
  | Exclude<SendOutcome, { kind: 'ok' }>
  /** Created, but the answer did not say which id the run has. */
  | { kind: 'no-id'; error: RunIdError };

/** POST /api/v1/runs and find the new run's id in whatever shape the service answers. */
export async function createRun(
  http: HttpClient,
  run: RunPayload,
  idempotencyKey: string,
  policy: RetryPolicy & { runIdPath?: string | undefined },
  deadline: Deadline,
): Promise<CreateRunOutcome> {
  const outcome = await sendWithRetries(
    http,
    '/api/v1/runs',
    JSON.stringify(run),
    idempotencyKey,
    policy,
    deadline,
  );
  if (outcome.kind !== 'ok') return outcome;
  const { response } = outcome;
  const runId = extractRunId(parseJson(response.body), response.headers.location, policy.runIdPath);
  if (runId === undefined) {
    return { kind: 'no-id', error: new RunIdError(response.status, response.body, policy.runIdPath) };
  }
  return { kind: 'ok', runId };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
