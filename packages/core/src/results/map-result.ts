import { toStatus } from '../options/status-text.js';
import type { RawResult, ResultInfo, TestResult, TestrunOptions } from '../types.js';
import { type NormalizeOptions, toDurationIn, toResult } from './normalize.js';
import { toName } from './result-name.js';

/** Where a result came from, as `mapResult` is told; the framework is the mapper's own. */
export type ResultSource = Omit<ResultInfo, 'framework'>;

/** A named result made into what is sent: cleaned, then through `mapResult`; null when it dropped it. */
export type ResultMapper = (raw: RawResult, source: ResultSource) => TestResult | null;

export interface ResultMapperOptions extends NormalizeOptions {
  mapResult?: TestrunOptions['mapResult'];
  /** The framework's name, given to `mapResult` with every result. */
  framework: string;
  /** Where a line about a misbehaving `mapResult` goes. */
  log: (line: string) => void;
}

/**
 * The last step of every result. What `mapResult` returns is checked, never trusted: its
 * names are cleaned like ours, an empty status (or one no service can store) keeps ours, a
 * duration that is not plausible is 0 (normalize.ts), and one that throws or answers
 * with a Promise leaves the result unchanged. Made once per reporter, not per run: the line
 * about an async `mapResult` is said once, not at every watch-mode rerun.
 */
export function createResultMapper(options: ResultMapperOptions): ResultMapper {
  const { mapResult, framework, log } = options;
  let asyncSaid = false;

  /**
   * Results go out as the tests end, so mapResult must answer at once: a Promise (an `async`
   * function) is not waited for. Said once; each such result is sent unchanged, as when
   * mapResult throws, and the Promise's own failure is not left unhandled.
   */
  const refuseAsync = (promise: PromiseLike<unknown>, result: TestResult): TestResult => {
    Promise.resolve(promise).catch(() => {});
    if (!asyncSaid) {
      asyncSaid = true;
      log(
        'mapResult returned a Promise; it must return the result itself (not an async function). Results are sent unchanged.',
      );
    }
    return result;
  };

  return (raw, source) => {
    const result = toResult(raw, options);
    if (!mapResult) return result;
    try {
      const mapped = mapResult(result, { ...source, framework });
      if (mapped === null || mapped === undefined) return null;
      if (isThenable(mapped)) return refuseAsync(mapped, result);
      return {
        testSuite: toName(mapped.testSuite),
        testCase: toName(mapped.testCase),
        status: toStatus(mapped.status) ?? result.status,
        // Already in the configured unit: only cleaned (plausible, else 0), not converted.
        duration: toDurationIn(mapped.duration, options.durationUnit),
      };
    } catch (error) {
      log(`mapResult threw (${(error as Error).message}); the result is sent unchanged.`);
      return result;
    }
  };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown }).then === 'function';
}
