import type { Deadline } from './deadline.js';
import { RunIdError } from './errors.js';
import type { HttpClient } from './http-client.js';
import { extractRunId } from './run-id.js';
import { type RetryPolicy, type SendOutcome, sendWithRetries } from './send-with-retries.js';
import type { RunPayload } from './spool.js';

export type CreateRunOutcome =
  /** `pageUrl`: the run's page, when the answer links one (see runPageUrl). */
  | { kind: 'ok'; runId: string; pageUrl: string | undefined }
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
  const runId = extractRunId(response.body, response.headers.location, policy.runIdPath);
  if (runId === undefined) {
    return { kind: 'no-id', error: new RunIdError(response.status, response.body, policy.runIdPath) };
  }
  return { kind: 'ok', runId, pageUrl: runPageUrl(response.headers.link, http.baseUrl) };
}

/**
 * A service that has a page per run says where with `Link: <url>; rel="alternate";
 * type="text/html"` on create-run (the local server does); a service that does not is
 * given no made-up link (docs/design.md, "The run's page").
 */
export function runPageUrl(link: string | undefined, baseUrl: string): string | undefined {
  for (const part of link?.split(/,(?=\s*<)/) ?? []) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (!match) continue;
    const params = match[2]!.toLowerCase();
    if (!/;\s*rel="?alternate"?/.test(params) || !/;\s*type="?text\/html"?/.test(params)) continue;
    try {
      const url = new URL(match[1]!, `${baseUrl}/`);
      if (url.protocol === 'https:' || url.protocol === 'http:') return url.href;
    } catch {}
  }
  return undefined;
}
