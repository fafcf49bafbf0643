// What a service may say it takes beyond the spec's two operations
// (docs/service-api.md#what-a-service-announces), and how that travels with a run id to the
// processes that share the run.

/** A failed result may carry why it failed (`details`): docs/design/failure-details.md. */
export const FAILURE_DETAILS_EXTENSION = 'failure-details';
/** The run may be completed (`PATCH /api/v1/runs/{runId}`):
 * docs/design/run-end.md#the-complete-run-extension. */
export const COMPLETE_RUN_EXTENSION = 'complete-run';

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
  QUARANTINE_EXTENSION,
] as const;
export type Extension = (typeof KNOWN_EXTENSIONS)[number];

/**
 * A run as one process hands it to others in TESTRUN_RUN_ID (`testrun create-run`, the
 * WebdriverIO launcher): its id, then what the service announced when it was created,
 * `8f3c…;extensions=failure-details,complete-run`. A process given the id alone cannot know
 * what the service takes; given this, a shard or worker sends what the service announced as
 * the process that created the run would. A run that announced nothing is its id alone, as
 * it always was.
 */
export interface RunHandle {
  runId: string;
  /** Undefined when the handle is a bare id: nothing is known of what the service takes. */
  extensions: Extension[] | undefined;
}

const EXTENSIONS_PART = ';extensions=';

export function formatRunHandle(runId: string, extensions: readonly Extension[]): string {
  return extensions.length === 0 ? runId : `${runId}${EXTENSIONS_PART}${extensions.join(',')}`;
}

/**
 * The id and extensions of a handle. The part after the last `;extensions=` is read only when
 * it is a list of extension names (letters, digits and `-`, comma-separated), so an id that
 * happens to hold the text elsewhere is kept whole; names this client does not know are
 * dropped (a newer service's, read by an older reporter).
 */
export function parseRunHandle(handle: string): RunHandle {
  const at = handle.lastIndexOf(EXTENSIONS_PART);
  const list = at > 0 ? handle.slice(at + EXTENSIONS_PART.length) : undefined;
  if (list === undefined || !/^[a-z0-9-]+(,[a-z0-9-]+)*$/i.test(list)) {
    return { runId: handle, extensions: undefined };
  }
  const names = new Set(list.toLowerCase().split(','));
  return {
    runId: handle.slice(0, at),
    extensions: KNOWN_EXTENSIONS.filter((extension) => names.has(extension)),
  };
}
