import { FILE_FAILURE_CASE, type FileReport, type RawResult, type RawTest } from '@testrun/core';
import type { MappedCase } from './map-junit.js';
import type { ReportPaths } from './report-paths.js';

/** What the feeder hands results to: core's RunReporter, or a RepeatFinder/RepeatNamer before it. */
export interface ResultSink {
  addFile(report: FileReport): void;
  addResults(results: readonly RawResult[]): void;
}

/**
 * A group of this many testcases is handed over and a new one started, so memory stays
 * flat on a report with one enormous suite; attempts of a test further apart than this
 * are not merged (each is then a result of its own: see RepeatNamer).
 */
export const MAX_GROUP_SIZE = 5_000;

type Group =
  | { kind: 'file'; key: string; file: string; items: RawTest[] }
  | { kind: 'named'; key: string; items: RawResult[] };

/**
 * Hands mapped testcases on a group at a time: consecutive testcases with the same
 * testSuite. Within a group, two things are merged, and nothing else: the attempts of one
 * test (MappedCase.attemptsOf, from a writer that writes a rerun as the testcase again)
 * are one result with the last attempt's outcome and duration, where the first stood, as
 * the reporters report a retried test; and the testcases that stand for one file that
 * failed to run (jest-junit writes two) are one `(file failed to run)`.
 */
export class ResultFeeder {
  private group: Group | undefined;
  /** attemptsOf key, or FILE_FAILURE_CASE → index in the group. */
  private readonly merged = new Map<string, number>();
  private handedOver = 0;
  private reruns = 0;

  constructor(
    private readonly sink: ResultSink,
    /** Where `file` attributes become paths of this machine. */
    private readonly paths: ReportPaths,
  ) {}

  /** Results handed to the sink so far. */
  get count(): number {
    return this.handedOver;
  }

  /** Testcases that were a later attempt of an earlier one of their group, and replaced it. */
  get rerun(): number {
    return this.reruns;
  }

  add(mapped: MappedCase): void {
    const key = mapped.kind === 'file' ? `f:${mapped.file}` : `n:${String(mapped.result.testSuite ?? '')}`;
    if (this.group?.key !== key || this.group.items.length >= MAX_GROUP_SIZE) {
      this.flush();
      this.group =
        mapped.kind === 'file'
          ? { kind: 'file', key, file: this.paths.local(mapped.file), items: [] }
          : { kind: 'named', key, items: [] };
    }
    const group = this.group;
    const mergeKey = mapped.attemptsOf ?? (standsForFile(mapped) ? FILE_FAILURE_CASE : undefined);
    const earlier = mergeKey === undefined ? undefined : this.merged.get(mergeKey);
    if (earlier !== undefined) {
      group.items[earlier] = mapped.kind === 'file' ? mapped.test : mapped.result;
      if (mapped.attemptsOf !== undefined) this.reruns++;
      return;
    }
    if (mergeKey !== undefined) this.merged.set(mergeKey, group.items.length);
    if (group.kind === 'file' && mapped.kind === 'file') group.items.push(mapped.test);
    else if (group.kind === 'named' && mapped.kind === 'named') group.items.push(mapped.result);
  }

  /** Hands the current group over. Call once the report is read. */
  flush(): void {
    const group = this.group;
    this.group = undefined;
    this.merged.clear();
    if (!group || group.items.length === 0) return;
    this.handedOver += group.items.length;
    if (group.kind === 'file') this.sink.addFile({ file: group.file, tests: group.items });
    else this.sink.addResults(group.items);
  }
}

function standsForFile(mapped: MappedCase): boolean {
  return mapped.kind === 'file'
    ? mapped.test.titles.length === 1 && mapped.test.titles[0] === FILE_FAILURE_CASE
    : mapped.result.testCase === FILE_FAILURE_CASE;
}
