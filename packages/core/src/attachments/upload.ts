import type { Deadline } from '../delivery/deadline.js';
import { type RetryPolicy, type SendOutcome, sendWithRetries } from '../delivery/send-with-retries.js';
import type { HttpClient } from '../http/client.js';
import type { RequestBody } from '../http/transport.js';

// The upload of one file's bytes (docs/design/attachments.md): PUT by its content hash,
// so every attempt, retry and replay of it is the same request, and a service keeps the
// bytes once however many results, runs or shards name them.

/** `PUT {base}/api/v1/runs/{runId}/attachments/{sha256}`. */
export function attachmentPath(runId: string, sha256: string): string {
  return `/api/v1/runs/${encodeURIComponent(runId)}/attachments/${sha256}`;
}

/** What is uploaded: a file on disk, read as it goes, or bytes in memory. */
export type UploadSource = { path: string } | { bytes: Uint8Array };

/** Uploads one file with retries (send-with-retries.ts), within `deadline`. */
export function uploadFile(
  http: HttpClient,
  runId: string,
  file: { sha256: string; size: number; source: UploadSource },
  policy: RetryPolicy,
  deadline: Deadline,
): Promise<SendOutcome> {
  const body: RequestBody =
    'bytes' in file.source ? file.source.bytes : { path: file.source.path, size: file.size };
  return sendWithRetries(
    http,
    attachmentPath(runId, file.sha256),
    body,
    `attachment-${file.sha256}`,
    policy,
    deadline,
    {
      method: 'PUT',
      contentType: 'application/octet-stream',
    },
  );
}
