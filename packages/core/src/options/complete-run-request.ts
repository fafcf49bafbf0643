// The request that tells the service a run has ended, and how: its form, as the
// `completeRun` option gives it, and filled in for one run. Whether and when it is sent is
// end-run.ts's (docs/design/run-end.md#the-complete-run-extension).

/**
 * How a run ended: `completed` when it ended normally and no result failed, `failed` when
 * it ended normally and at least one result was sent with the failed status, `interrupted`
 * when the process was cancelled or exited before the run ended.
 */
export type RunEndStatus = 'completed' | 'failed' | 'interrupted';

export const RUN_END_STATUSES: readonly RunEndStatus[] = ['completed', 'failed', 'interrupted'];

/** The request that completes a run, as templates: `{runId}` in path and body, `{status}` in the body. */
export interface CompleteRunRequest {
  method: 'PATCH' | 'POST' | 'PUT';
  path: string;
  /** JSON text once `{status}` and `{runId}` are filled in. */
  body: string;
}

export const COMPLETE_RUN_METHODS: readonly CompleteRunRequest['method'][] = ['PATCH', 'POST', 'PUT'];

/** What `completeRun: true` sends: `PATCH {base}/api/v1/runs/{runId}` with `{"status":"…"}`. */
export const DEFAULT_COMPLETE_RUN: Readonly<CompleteRunRequest> = {
  method: 'PATCH',
  path: '/api/v1/runs/{runId}',
  body: '{"status":"{status}"}',
};

/**
 * How a run is completed: `'auto'`, with the default request where create-run's answer
 * announced `complete-run` and not at all elsewhere; a request, always; or false, never.
 */
export type CompleteRunChoice = CompleteRunRequest | 'auto' | false;

/**
 * The completeRun option's value as a choice, or the problem with it: `'auto'` as it is,
 * `true` the default request, `false` none, an object `{ method, path, body }` replaces the
 * default's fields it names (`body` as JSON text or as a value, written as JSON).
 */
export function readCompleteRun(value: unknown): { request: CompleteRunChoice } | { problem: string } {
  if (value === false || value === 'auto') return { request: value };
  if (value === true) return { request: { ...DEFAULT_COMPLETE_RUN } };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { problem: "must be 'auto', true, false or an object { method, path, body }" };
  }
  const given = value as Record<string, unknown>;
  const unknown = Object.keys(given).find((key) => !['method', 'path', 'body'].includes(key));
  if (unknown) return { problem: `has no field "${unknown.slice(0, 40)}"; it takes method, path and body` };
  const method = given.method === undefined ? DEFAULT_COMPLETE_RUN.method : given.method;
  if (typeof method !== 'string' || !COMPLETE_RUN_METHODS.includes(method.toUpperCase() as never)) {
    return { problem: `must have method ${COMPLETE_RUN_METHODS.join(', ')}` };
  }
  const path = given.path === undefined ? DEFAULT_COMPLETE_RUN.path : given.path;
  if (typeof path !== 'string' || !path.startsWith('/')) {
    return { problem: 'must have a path that starts with "/", e.g. "/api/v1/runs/{runId}/complete"' };
  }
  const body =
    given.body === undefined
      ? DEFAULT_COMPLETE_RUN.body
      : typeof given.body === 'string'
        ? given.body
        : JSON.stringify(given.body);
  try {
    JSON.parse(fillBody(body, 'completed', 'run-id'));
  } catch {
    return {
      problem:
        'must have a body that is JSON once {status} and {runId} are filled in, e.g. {"state":"{status}"}',
    };
  }
  return { request: { method: method.toUpperCase() as CompleteRunRequest['method'], path, body } };
}

/** The request's path for this run: `{runId}` encoded as a path segment. */
export function fillPath(path: string, runId: string): string {
  return path.replaceAll('{runId}', encodeURIComponent(runId));
}

/** The request's body for this run: `{status}` and `{runId}` written as JSON string content. */
export function fillBody(body: string, status: RunEndStatus, runId: string): string {
  const inString = (text: string) => JSON.stringify(text).slice(1, -1);
  return body.replaceAll('{status}', inString(status)).replaceAll('{runId}', inString(runId));
}
