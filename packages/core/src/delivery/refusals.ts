import { type HttpError, RequestsRefusedError, ResultRefusedError } from '../errors.js';
import type { Batch, TestResult } from '../types.js';

// What one run's deliveries learn from the service's refusals
// (docs/design/delivery.md#400-the-result-at-fault). A batch refused for what it holds (400) is
// split as a 413 is, down to results alone; a result the service refuses alone is at fault only if
// the service takes other results of the same run. Until it has taken one, a refusal may be of the
// request itself (a run id, a header, a body it cannot read), which no split finds: those refusals
// are counted, and past MAX_BLIND_REFUSALS the run's refused parts are no longer split but spooled,
// so a service that refuses everything costs a bounded number of requests, not one per result.

/**
 * Statuses that refuse what a request holds: the batch is split to find the result at fault.
 * Not 422: the IETF Idempotency-Key draft answers it to a key sent again with another body,
 * and the halves' new keys would then store again what the first body stored.
 */
export const REFUSES_CONTENT: ReadonlySet<number> = new Set([400]);

/**
 * Refusals a run's deliveries may meet before the service has taken any of its results. One
 * result at fault in the largest batch (10,000) is found within 15 (down to it and its
 * neighbour, which is taken); this leaves room for a few at fault side by side.
 */
export const MAX_BLIND_REFUSALS = 64;

/** At most this many refused results are named, a line each, in a run or a replay; the rest are counted. */
export const MAX_NAMED_REFUSALS = 10;

/** A result the service refused alone, while it took others of the run: said, never sent again. */
export interface RefusedResult {
  result: TestResult;
  error: ResultRefusedError;
}

/** One run's refusals: shared by every batch of the run (a run session, or a spool file in replay). */
export class RunRefusals {
  /** The service took a result of this run: a refusal is then of what a request holds. */
  private took = false;
  private blind = 0;
  /** The service's answer to the first refusal: why results are spooled when it takes none. */
  private firstRefusal: HttpError | undefined;
  private refused: RefusedResult[] = [];
  /** Results refused alone before the service took any of the run's, each its own part (its key). */
  private undecided: { part: Batch; error: HttpError }[] = [];

  /** A part of a batch was taken: every result refused alone so far, and from now, is at fault. */
  accepted(): void {
    this.took = true;
    for (const { part, error } of this.undecided.splice(0)) this.refuseAlone(part, error);
  }

  /**
   * A part was refused for what it holds: whether to split it (or, for a result alone, judge
   * it), or keep it whole because the service refuses the run's requests whatever they hold.
   */
  search(error: HttpError): boolean {
    this.firstRefusal ??= error;
    if (this.took) return true;
    this.blind += 1;
    return this.blind <= MAX_BLIND_REFUSALS;
  }

  /** The service refused more than MAX_BLIND_REFUSALS parts and took none of the run's results: refused parts are kept whole. */
  get refusesRequests(): boolean {
    return !this.took && this.blind > MAX_BLIND_REFUSALS;
  }

  /** A result the service refused alone: at fault if it took others of the run; undecided until then. */
  refusedAlone(part: Batch, error: HttpError): void {
    if (this.took) this.refuseAlone(part, error);
    else this.undecided.push({ part, error });
  }

  /** Results found at fault since the last call: the caller says each and counts it. */
  takeRefused(): RefusedResult[] {
    return this.refused.splice(0);
  }

  /** Results refused alone that nothing showed to be at fault: they go to the spool. */
  takeUndecided(): Batch[] {
    return this.undecided.splice(0).map(({ part }) => part);
  }

  /** Some results wait for the run's other results to tell whether they are at fault. */
  get waiting(): boolean {
    return this.undecided.length > 0;
  }

  /** What is said, once, of results kept because the service refused them whatever they held. */
  requestsRefused(): RequestsRefusedError | undefined {
    return this.firstRefusal && new RequestsRefusedError(this.firstRefusal);
  }

  private refuseAlone(part: Batch, error: HttpError): void {
    const result = (JSON.parse(part.body) as { results: TestResult[] }).results[0]!;
    this.refused.push({ result, error: new ResultRefusedError(result, error) });
  }
}

/**
 * The lines that name refused results: one each for the first MAX_NAMED_REFUSALS, then one
 * saying the rest are counted, not named. A run whose service refuses every skipped test (a
 * status it does not take) would otherwise print a line per test.
 */
export class RefusedLines {
  private named = 0;

  lineFor(refused: RefusedResult): string | undefined {
    this.named += 1;
    if (this.named <= MAX_NAMED_REFUSALS) return refused.error.message;
    if (this.named === MAX_NAMED_REFUSALS + 1) {
      return `the service refused more results than the ${MAX_NAMED_REFUSALS} named above; they are not sent again, and the summary counts them`;
    }
    return undefined;
  }
}
