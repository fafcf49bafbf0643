import { EMPTY_NAME, type FileReport, type RawResult, type RawTest, TITLE_SEPARATOR } from '@testrun/core';
import type { ResultSink } from './result-feeder.js';

// Two results of one upload with the same testSuite and testCase would be one test to the
// service, which keeps one of them: a failure could vanish behind a pass. So a result whose
// name an earlier result of the upload already has is sent as a result of its own, with
// ` (2)`, ` (3)`… after its testCase, in the order of the reports and of the testcases in
// them (docs/junit.md#repeats). Attempts of one retried test never get here: the
// ResultFeeder made them one result.
//
// Finding repeats needs every name of the upload. Holding them all would make memory grow
// with the reports, so the first read (the check) keeps a 30-bit hash of each name, and the
// second (the send) counts names exactly, but only those whose hash came more than once. A
// hash that two names share costs a little memory, never a wrong name.

/** First read: which names (by hash) occur more than once in the upload. */
export class RepeatFinder implements ResultSink {
  private readonly seen = new Set<number>();
  /** Hashes of the names that occur more than once. */
  readonly repeated = new Set<number>();

  addFile(report: FileReport): void {
    for (const test of report.tests) this.note(fileTestName(report.file, test));
  }

  addResults(results: readonly RawResult[]): void {
    for (const result of results) this.note(resultName(result));
  }

  private note(name: string): void {
    const hash = hashOf(name);
    if (this.seen.has(hash)) this.repeated.add(hash);
    else this.seen.add(hash);
  }
}

/** Second read: passes results on to `sink`, the second and later of a name with ` (n)` after its testCase. */
export class RepeatNamer implements ResultSink {
  private readonly occurrences = new Map<string, number>();
  private renamedCount = 0;

  constructor(
    private readonly sink: ResultSink,
    /** RepeatFinder.repeated of the same upload. */
    private readonly repeated: ReadonlySet<number>,
  ) {}

  /** Results sent with ` (n)` so far. */
  get renamed(): number {
    return this.renamedCount;
  }

  addFile(report: FileReport): void {
    const tests = report.tests.map((test): RawTest => {
      const n = this.occurrence(fileTestName(report.file, test));
      if (n === 1) return test;
      const titles = [...test.titles];
      titles[titles.length - 1] = `${nameOf(titles.at(-1))} (${n})`;
      return { ...test, titles };
    });
    this.sink.addFile({ ...report, tests });
  }

  addResults(results: readonly RawResult[]): void {
    this.sink.addResults(
      results.map((result) => {
        const n = this.occurrence(resultName(result));
        return n === 1 ? result : { ...result, testCase: `${nameOf(result.testCase)} (${n})` };
      }),
    );
  }

  /** 1 for the first result of a name, 2 for the second… */
  private occurrence(name: string): number {
    if (!this.repeated.has(hashOf(name))) return 1;
    const n = (this.occurrences.get(name) ?? 0) + 1;
    this.occurrences.set(name, n);
    if (n > 1) this.renamedCount++;
    return n;
  }
}

/** A test of a file, named as core names it: the file, then the titles joined. */
function fileTestName(file: string, test: RawTest): string {
  return `f\u0000${file}\u0000${test.titles.map(nameOf).join(TITLE_SEPARATOR)}`;
}

function resultName(result: RawResult): string {
  return `n\u0000${nameOf(result.testSuite)}\u0000${nameOf(result.testCase)}`;
}

/** A name as core sends it, as far as telling names apart goes: blank is `(unnamed)`. */
function nameOf(value: unknown): string {
  const text = value == null ? '' : String(value);
  return text.trim() === '' ? EMPTY_NAME : text;
}

/** FNV-1a over the UTF-16 code units, cut to 30 bits so that V8 keeps it as a small integer. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash & 0x3fffffff;
}
