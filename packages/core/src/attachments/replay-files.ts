import fs from 'node:fs';
import type { Deadline } from '../delivery/deadline.js';
import type { RetryPolicy } from '../delivery/send-with-retries.js';
import type { HttpClient } from '../http/client.js';
import { formatSize } from '../options/size-text.js';
import { hashFileSync, hashOf, said } from './prepare.js';
import type { SpoolAttachmentRecord } from './spooled-file.js';
import { type UploadSource, uploadFile } from './upload.js';

// Replay's half of the attachments (docs/design/attachments.md): the files a reporter
// could not upload, sent to the run once it takes files, from where they were (if they are
// still there, with the same size and hash) or from the bytes the spool kept.

export interface FilesReplay {
  /** Records still to send on a later replay (the service could not be reached). */
  left: SpoolAttachmentRecord[];
  sent: number;
  /** Files that can never be sent from here: gone, changed, or refused by the service. */
  dropped: number;
  /** One line for each file dropped: naming the file, the test and why. */
  notes: string[];
  /** One line for each file left for a later replay, and why. */
  errors: string[];
}

export async function replayAttachments(
  records: readonly SpoolAttachmentRecord[],
  target: { http: HttpClient; runId: string; policy: RetryPolicy; deadline: Deadline },
): Promise<FilesReplay> {
  const replay: FilesReplay = { left: [], sent: 0, dropped: 0, notes: [], errors: [] };
  let stopped = false;
  for (const record of records) {
    const what = `${said(record.name, { test: record.test ?? '(unknown test)' })} (${formatSize(record.size)})`;
    if (stopped) {
      replay.left.push(record);
      continue;
    }
    const source = sourceOf(record);
    if (typeof source === 'string') {
      replay.dropped += 1;
      replay.notes.push(`${what} ${source}: not uploaded`);
      continue;
    }
    const outcome = await uploadFile(
      target.http,
      target.runId,
      { ...record, source },
      target.policy,
      target.deadline,
    );
    if (outcome.kind === 'ok') {
      replay.sent += 1;
    } else if (outcome.kind === 'too-large' || outcome.kind === 'rejected') {
      replay.dropped += 1;
      replay.notes.push(`${what} was refused by the service: ${outcome.error.message}`);
    } else {
      replay.left.push(record);
      replay.errors.push(`${what} stays in the spool: ${outcome.error.message}`);
      // A refused key or a failed handshake fails every further file the same way.
      stopped = outcome.kind === 'auth' || outcome.kind === 'tls' || target.deadline.passed;
    }
  }
  return replay;
}

/** Where the bytes are now, or why there are none to send. */
function sourceOf(record: SpoolAttachmentRecord): UploadSource | string {
  if (record.body !== undefined) {
    const bytes = Buffer.from(record.body, 'base64');
    return hashOf(bytes) === record.sha256
      ? { bytes }
      : 'was spooled damaged (its bytes do not match their hash)';
  }
  if (record.path === undefined) return 'was spooled without its bytes or path';
  let size: number;
  try {
    size = fs.statSync(record.path).size;
  } catch {
    return `is no longer at ${record.path}`;
  }
  if (size !== record.size || hashOrNothing(record.path) !== record.sha256) {
    return `changed since the run (${record.path} is not the file that was attached)`;
  }
  return { path: record.path };
}

function hashOrNothing(file: string): string | undefined {
  try {
    return hashFileSync(file).sha256;
  } catch {
    return undefined;
  }
}
