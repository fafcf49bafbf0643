import path from 'node:path';
import type { FileReport, RawResult, RawTest } from '@testrun/core';
import type { MappedCase } from './map-junit.js';

/** What the feeder hands results to: core's RunReporter. */
export interface ResultSink {
  addFile(report: FileReport): void;
  addResults(results: readonly RawResult[]): void;
}

/**
 * A group of this many testcases is handed over and a new one started, so memory stays
 * flat on a report with one enormous suite; a repeat further apart than this is sent twice.
 */
export const MAX_GROUP_SIZE = 5_000;

type Group =
  | { kind: 'file'; key: string; file: string; items: RawTest[] }
  | { kind: 'named'; key: string; items: RawResult[] };

/**
 * Hands mapped testcases to core a group at a time: consecutive testcases with the same
 * testSuite. Within a group a repeated testcase (a retry, as Gradle's test-retry plugin
 * and jest-junit's doubled load failures write them) is one result with its last
 * outcome, as the reporters report a retried test.
 */
export class ResultFeeder {
  private group: Group | undefined;
  /** testCase → index in the group, for repeats. */
  private readonly seen = new Map<string, number>();
  private handedOver = 0;
  private repeats = 0;

  constructor(
    private readonly sink: ResultSink,
    /** Where `file` attributes are resolved: the directory the tests ran in. */
    private readonly baseDir: string,
  ) {}

  /** Results handed to the sink so far. */
  get count(): number {
    return this.handedOver;
  }

  /** Testcases that repeated an earlier one of their group and replaced it. */
  get repeated(): number {
    return this.repeats;
  }

  add(mapped: MappedCase): void {
    const key = mapped.kind === 'file' ? `f:${mapped.file}` : `n:${String(mapped.result.testSuite ?? '')}`;
    if (this.group?.key !== key || this.group.items.length >= MAX_GROUP_SIZE) {
      this.flush();
      this.group =
        mapped.kind === 'file'
          ? { kind: 'file', key, file: path.resolve(this.baseDir, mapped.file), items: [] }
          : { kind: 'named', key, items: [] };
    }
    const group = this.group;
    const testCase =
      mapped.kind === 'file'
        ? mapped.test.titles.map(String).join('\u0000')
        : String(mapped.result.testCase ?? '');
    const earlier = this.seen.get(testCase);
    if (earlier !== undefined) {
      group.items[earlier] = mapped.kind === 'file' ? mapped.test : mapped.result;
      this.repeats++;
      return;
    }
    this.seen.set(testCase, group.items.length);
    if (group.kind === 'file' && mapped.kind === 'file') group.items.push(mapped.test);
    else if (group.kind === 'named' && mapped.kind === 'named') group.items.push(mapped.result);
  }

  /** Hands the current group over. Call once the report is read. */
  flush(): void {
    const group = this.group;
    this.group = undefined;
    this.seen.clear();
    if (!group || group.items.length === 0) return;
    this.handedOver += group.items.length;
    if (group.kind === 'file') this.sink.addFile({ file: group.file, tests: group.items });
    else this.sink.addResults(group.items);
  }
}
