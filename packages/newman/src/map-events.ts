import { type CanonicalStatus, type RawResult, TITLE_SEPARATOR } from '@testrun/core';

// What the reporter keeps of Newman's events, as plain records (Newman's own are live
// collection objects), and how an item's records become its result when the item ends.
// docs/design/newman.md says why a request, not an assertion, is a result.

/** One event the reporter kept: every field is plain data, so recorded runs replay in tests. */
export type NewmanEvent =
  | {
      name: 'beforeItem';
      ref: string;
      /** The folders the request is in, outermost first, then the request's name. */
      titles: string[];
      /** From 0. */
      iteration: number;
      /** How many iterations the run has (`-n`, the rows of `-d`). */
      iterations: number;
    }
  | {
      name: 'request';
      ref: string;
      /** Why the request was not answered: connection refused, a timeout, a TLS failure. */
      error?: string;
      /** `GET http://host/path`, without the query string and credentials. */
      request?: string;
      responseTime?: number;
    }
  | {
      name: 'assertion';
      ref: string;
      assertion: string;
      skipped: boolean;
      error?: { name?: string; message?: string };
    }
  | {
      name: 'script';
      ref: string;
      script: string;
      error: { name?: string; message?: string; stack?: string };
    }
  | { name: 'item'; ref: string };

/** One item's execution while it runs. */
interface ItemRecord {
  titles: string[];
  iteration: number;
  iterations: number;
  sent: boolean;
  requestError?: string;
  request?: string;
  responseTime?: number;
  assertions: { name: string; skipped: boolean; error?: { name?: string; message?: string } }[];
  scriptErrors: { script: string; error: { name?: string; message?: string; stack?: string } }[];
}

/**
 * Newman's items (requests) as results, each when it ends: testSuite the collection's name,
 * testCase its folders and its name joined with ` > ` (` (iteration N)` after it when the run
 * has more than one iteration). Its assertions decide its status; a request that was not
 * answered, or a script that threw, fails it.
 */
export class NewmanMapping {
  private readonly items = new Map<string, ItemRecord>();

  constructor(private readonly collection: string) {}

  /** Keeps what the event says; when an item ends, its result. */
  take(event: NewmanEvent): RawResult | undefined {
    if (event.name === 'beforeItem') {
      const { titles, iteration, iterations } = event;
      this.items.set(event.ref, {
        titles,
        iteration,
        iterations,
        sent: false,
        assertions: [],
        scriptErrors: [],
      });
      return undefined;
    }
    const item = this.items.get(event.ref);
    if (!item) return undefined;
    switch (event.name) {
      case 'request':
        item.sent = event.error === undefined;
        item.requestError = event.error;
        item.request = event.request;
        item.responseTime = event.responseTime;
        return undefined;
      case 'assertion':
        item.assertions.push({ name: event.assertion, skipped: event.skipped, error: event.error });
        return undefined;
      case 'script':
        item.scriptErrors.push({ script: event.script, error: event.error });
        return undefined;
      case 'item':
        this.items.delete(event.ref);
        return this.resultOf(item);
    }
  }

  /**
   * At the run's end, the requests that began and never ended (a run Newman aborted midway, a
   * `done` with an error): each a failed result, saying so after whatever it had seen.
   */
  unfinished(): RawResult[] {
    const results = [...this.items.values()].map((item) => {
      const result = this.resultOf(item);
      const ended = { message: 'the run ended before this request ended' };
      return { ...result, status: 'failed' as const, failure: { errors: [...errorsOf(item), ended] } };
    });
    this.items.clear();
    return results;
  }

  private resultOf(item: ItemRecord): RawResult {
    const titles = [...item.titles];
    if (item.iterations > 1)
      titles[titles.length - 1] = `${titles.at(-1) ?? ''} (iteration ${item.iteration + 1})`;
    const status = statusOf(item);
    return {
      testSuite: this.collection,
      testCase: titles.map((title) => (title.trim() === '' ? '(unnamed)' : title)).join(TITLE_SEPARATOR),
      status,
      duration: item.responseTime,
      failure: status === 'failed' ? { errors: errorsOf(item) } : undefined,
    };
  }
}

/**
 * failed: the request was not answered, a script threw, or an assertion failed; skipped: it
 * was not sent (`pm.execution.skipRequest()`), or every assertion it has was skipped
 * (`pm.test.skip`); else passed, a request without assertions too (Newman fails nothing for it).
 */
export function statusOf(
  item: Pick<ItemRecord, 'sent' | 'requestError' | 'assertions' | 'scriptErrors'>,
): CanonicalStatus {
  if (item.requestError !== undefined || item.scriptErrors.length > 0) return 'failed';
  if (item.assertions.some((assertion) => !assertion.skipped && assertion.error)) return 'failed';
  if (!item.sent) return 'skipped';
  if (item.assertions.length > 0 && item.assertions.every((assertion) => assertion.skipped)) return 'skipped';
  return 'passed';
}

/** Why it failed, first first: the request's error, the scripts' errors, each failed assertion. */
function errorsOf(item: ItemRecord): { message: string; stack?: string }[] {
  const errors: { message: string; stack?: string }[] = [];
  if (item.requestError !== undefined) {
    errors.push({ message: item.request ? `${item.request}: ${item.requestError}` : item.requestError });
  }
  for (const { script, error } of item.scriptErrors) {
    errors.push({
      message: `${script} script: ${error.name ?? 'Error'}: ${error.message ?? ''}`,
      stack: error.stack,
    });
  }
  for (const assertion of item.assertions) {
    if (assertion.skipped || !assertion.error) continue;
    errors.push({
      message: `${assertion.name}: ${assertion.error.message ?? assertion.error.name ?? 'failed'}`,
    });
  }
  return errors;
}
