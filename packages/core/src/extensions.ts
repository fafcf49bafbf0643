// What a service may say it takes beyond the spec's two operations
// (docs/service-api.md#what-a-service-announces), and how that travels with a run id to the
// processes that share the run.

/** A failed result may carry why it failed (`details`): docs/design/failure-details.md. */
export const FAILURE_DETAILS_EXTENSION = 'failure-details';
/** The run may be completed (`PATCH /api/v1/runs/{runId}`):
 * docs/design/run-end.md#the-complete-run-extension. */
export const COMPLETE_RUN_EXTENSION = 'complete-run';
/** A result may name files, uploaded by `PUT …/attachments/{sha256}`: docs/design/attachments.md. */
export const ATTACHMENTS_EXTENSION = 'attachments';

/**
 * A run and its results may be read back (`GET /api/v1/runs/{runId}` and `…/results`):
 * docs/design/ci-summary.md#read-runs-announced-like-complete-run.
 */
export const READ_RUNS_EXTENSION = 'read-runs';

/**
 * The run's project quarantines tests (`GET /api/v1/runs/{runId}/quarantine`), and a failed
 * result may say it was a quarantined test's (`quarantined: true`): docs/design/quarantine.md.
 */
export const QUARANTINE_EXTENSION = 'quarantine';

/** The extensions this client knows, in the order it writes them. */
export const KNOWN_EXTENSIONS = [
  FAILURE_DETAILS_EXTENSION,
  COMPLETE_RUN_EXTENSION,
  READ_RUNS_EXTENSION,
  ATTACHMENTS_EXTENSION,
  QUARANTINE_EXTENSION,
] as const;
export type Extension = (typeof KNOWN_EXTENSIONS)[number];

/**
 * What a service that takes attachments says it keeps, in create-run's answer: a larger file,
 * or one that would take the run past its total, is answered 413. Either may be unsaid.
 */
export interface AttachmentLimits {
  maxFileBytes?: number | undefined;
  maxRunBytes?: number | undefined;
}

/**
 * What a service says one results request may hold, in create-run's answer, whatever else it
 * announces: a batch past either is split before it is sent, as a 413 would split it
 * (docs/service-api.md#413-too-large). Either may be unsaid; a service that says neither is
 * learned from by its 413s.
 */
export interface ResultLimits {
  /** Results in one request. */
  maxResults?: number | undefined;
  /** Bytes of one request's body. */
  maxBytes?: number | undefined;
}

/**
 * A run as one process hands it to others in TESTRUN_RUN_ID (`testrun create-run`, the
 * WebdriverIO launcher): its id, then what the service announced when it was created,
 * `8f3c…;extensions=failure-details,complete-run,read-runs,attachments;attachment-limits=104857600/1073741824`.
 * A process given the id alone cannot know what the service takes; given this, a shard or
 * worker sends what the service announced as the process that created the run would. A run
 * that announced nothing is its id alone, as it always was.
 */
export interface RunHandle {
  runId: string;
  /** Undefined when the handle is a bare id: nothing is known of what the service takes. */
  extensions: Extension[] | undefined;
  /** The attachments' limits, when the handle says them. */
  attachmentLimits?: AttachmentLimits | undefined;
}

const EXTENSIONS_PART = ';extensions=';
const LIMITS_PART = ';attachment-limits=';

export function formatRunHandle(
  runId: string,
  extensions: readonly Extension[],
  limits?: AttachmentLimits,
): string {
  if (extensions.length === 0) return runId;
  const handle = `${runId}${EXTENSIONS_PART}${extensions.join(',')}`;
  if (!extensions.includes(ATTACHMENTS_EXTENSION) || !limits) return handle;
  const { maxFileBytes, maxRunBytes } = limits;
  if (maxFileBytes === undefined && maxRunBytes === undefined) return handle;
  return `${handle}${LIMITS_PART}${maxFileBytes ?? ''}/${maxRunBytes ?? ''}`;
}

/**
 * The id and extensions of a handle. The part after the last `;extensions=` is read only when
 * it is a list of extension names (letters, digits and `-`, comma-separated), optionally
 * followed by `;attachment-limits=<file bytes>/<run bytes>` (either may be empty), so an id
 * that happens to hold the text elsewhere is kept whole; names this client does not know are
 * dropped (a newer service's, read by an older reporter).
 */
export function parseRunHandle(handle: string): RunHandle {
  const at = handle.lastIndexOf(EXTENSIONS_PART);
  const rest = at > 0 ? handle.slice(at + EXTENSIONS_PART.length) : undefined;
  const match =
    rest === undefined
      ? null
      : /^([a-z0-9-]+(?:,[a-z0-9-]+)*)(?:;attachment-limits=(\d*)\/(\d*))?$/i.exec(rest);
  if (!match) return { runId: handle, extensions: undefined };
  const names = new Set(match[1]!.toLowerCase().split(','));
  const extensions = KNOWN_EXTENSIONS.filter((extension) => names.has(extension));
  const parsed: RunHandle = { runId: handle.slice(0, at), extensions };
  if (match[2] || match[3]) {
    parsed.attachmentLimits = {
      maxFileBytes: match[2] ? Number(match[2]) : undefined,
      maxRunBytes: match[3] ? Number(match[3]) : undefined,
    };
  }
  return parsed;
}
