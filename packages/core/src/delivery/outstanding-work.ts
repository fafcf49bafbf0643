import type { AttachmentLimits } from '../extensions.js';
import type { FileDeliverySummary } from '../types.js';

/**
 * Work beside the batches that the run's end waits for: the attachments' uploads
 * (docs/design/attachments.md). The end waits for it as for the batches, within the same
 * deadline, and completes the run only once it all reached the service.
 */
export interface OutstandingWork {
  /** Resolves once all of it is sent, refused for good or spooled; it keeps to the session's deadline. */
  settled(): Promise<void>;
  /** The deadline passed or the process is on its way out: what is left goes to the spool, synchronously. */
  spoolNow(): void;
  /** Everything of it reached the service (or was refused for good): the run may be completed. */
  delivered(): boolean;
  /** What the summary says of it. */
  files(): FileDeliverySummary;
}

/** The run as the service created it, for work beside the batches: where to send, and what it takes. */
export interface CreatedRun {
  runId: string;
  /** The run takes attached files (`attachments` announced, or a run handle that says so). */
  acceptsAttachments: boolean;
  attachmentLimits: AttachmentLimits | undefined;
}
