import { TextDecoder } from 'node:util';
import { Parser, type Result } from 'tap-parser';
import { FORMATS_SENTENCE, ReportReadError, unreadable } from './open-report.js';

// Reads a TAP stream (https://testanything.org: TAP 13 and 14, as node-tap, AVA, `node --test`,
// tape, Deno and many tools outside JavaScript write it) with tap-parser, node-tap's own
// parser, into the test points that are results, each with the names of the subtests it is in.
// docs/tap.md says the same for users.
//
// - A test point without a subtest is a result: node-tap's assertions (and its skipped and
//   todo subtests, which have none), node --test's tests, AVA's tests, tape's assertions.
// - A subtest that failed with no failed result inside it failed on its own (a hook, a test
//   file that crashed after its assertions passed): its closing point is a result too.
// - A first-level subtest named like a test file (node-tap names each file's so) is that
//   file: its results are the file's, named as the reporters name files.
// - A stream whose first top-level point comes after comments, and after no plan and no
//   `# Subtest`, names its tests in comments (tape: `# cart adds an item`, then that test's
//   assertions): each top-level comment names the points after it; tape's `# SKIP <name>` is
//   a skipped test of its own.
// - A subtest's name is its `# Subtest:` comment's; a TAP 13 subtest without one is named
//   by its closing point, so its results wait for it (held, and only those).

/** One result of the stream, before it is named for the service (map-tap.ts). */
export interface TapPoint {
  /** The test file it belongs to: a first-level subtest named like one. */
  file: string | undefined;
  /**
   * The names of the subtests (below the file) and comment it is in, outermost first, then its
   * own description; none for a test file's own failure.
   */
  titles: string[];
  ok: boolean;
  /** `# SKIP` (true, or its reason); tape's `# SKIP <name>` comment. */
  skip: boolean | string;
  /** `# TODO` (true, or its reason). */
  todo: boolean | string;
  /** Milliseconds: node-tap's `# time=` directive, node --test's `duration_ms`; null when the writer says none. */
  time: number | null;
  /** The YAML diagnostics after it, as parsed. */
  diag: unknown;
  /** The closing point of a subtest that failed on its own, not a test point of its own. */
  subtest: boolean;
  /** Which point of the stream it is, from 1, in document order: for messages. */
  index: number;
}

/** Why the stream's tests did not all run: the `Bail out!` line's reason, or its plan. */
export interface TapIncomplete {
  reason: string;
  /** No result of the stream failed: nothing else says it went wrong. */
  nothingFailed: boolean;
}

export type TapEvent =
  | { kind: 'point'; point: TapPoint }
  | { kind: 'incomplete'; incomplete: TapIncomplete }
  /** Lines longer than MAX_TAP_LINE, read as their start: how many, and the first one's number. Sent once, at the end. */
  | { kind: 'long-lines'; count: number; firstLine: number }
  /** YAML diagnostics blocks longer than MAX_TAP_DIAGNOSTICS, dropped: how many, and the first one's line. Sent once, at the end. */
  | { kind: 'long-diagnostics'; count: number; firstLine: number };

/**
 * Subtests nested deeper than this make the report unreadable. A level is four spaces on every
 * line inside it, and tap-parser reads each line once per level it is in: a stream 800 deep
 * took 11 s, 10,000 deep more than two minutes. Writers nest a level per file, `describe` and
 * `t.test`: 100 is far beyond what a suite needs, and read in a fraction of a second.
 */
export const MAX_TAP_DEPTH = 100;

/**
 * A line longer than this many characters is read as its start, the rest skipped unread: a
 * stream of one endless line (a writer that never wrote a newline) would otherwise be held
 * whole, and tap-parser scans what it holds again for each chunk. 1 Mi characters keeps any
 * name (core keeps 1,024 characters of it) and nearly any diagnostic line whole.
 */
export const MAX_TAP_LINE = 1_048_576;

/**
 * A YAML diagnostics block (`---` … `...` under a test point) longer than this many characters
 * is dropped, its `duration_ms` kept: tap-parser holds a block whole until its end and then
 * parses it, so a block that never ends (a writer stopped mid-block, output mistaken for YAML)
 * would hold the rest of the stream. 4 Mi characters keeps any failure's message, stack and
 * captured output (core keeps far less of each).
 */
export const MAX_TAP_DIAGNOSTICS = 4 * 1_048_576;

/** The line that opens a YAML diagnostics block; tap-parser reads one only indented, right after a test point. */
const YAML_START = /^([ \t]+)---\n$/;
const TEST_POINT = /^[ \t]*(?:not )?ok\b/;
/** A block's line that tap-parser takes from it: the test point's duration (node --test writes it there). */
const YAML_DURATION = /^duration_ms: \S+\n$/;

/** A first-level subtest name that is a JavaScript or TypeScript test file's path. */
const TEST_FILE = /^[^\s]+\.(?:[cm]?[jt]sx?)$/;

/** Comments that are no name of a test: a subtest's, and what writers add at the end. */
const SUBTEST_COMMENT = /^# Subtest\b/;

/** tape's comment for a skipped test, which writes no test point for it. */
const SKIPPED_TEST_COMMENT = /^# SKIP (.+)$/;
/** tape's comment for a todo test, whose assertions follow with `# TODO` of their own. */
const TODO_TEST_COMMENT = /^# TODO (.+)$/;

/** One subtest being read (or the stream itself, the root). */
interface Level {
  parent: Level | undefined;
  /** Its name; '' while a TAP 13 subtest waits for its closing point to name it. */
  name: string;
  /** Set on a first-level subtest named like a test file. */
  file: string | undefined;
  /** Results that failed inside it so far, its subtests' included. */
  failed: number;
  /** Its subtest being read, whose closing point is the next test point here. */
  child: Level | undefined;
  /** Results waiting for this level's name (it has none yet), to be named when it gets one. */
  held: Pending[];
}

interface YamlBlock {
  /** Its `---` line's indentation, which every line of it starts with. */
  indent: string;
  /** Its lines so far, the `---` first; once dropped, only that, its duration and its end. */
  lines: string[];
  /** Characters of its lines after the `---`. */
  size: number;
  /** The number of its `---` line. */
  firstLine: number;
  dropped: boolean;
}

interface Pending {
  level: Level;
  point: Omit<TapPoint, 'file' | 'titles'> & { name: string };
}

/**
 * Reads a report's bytes (openReport's chunks) and yields its events a chunk at a time.
 * Throws a ReportReadError for a report that is empty or holds no TAP at all; everything
 * else a TAP stream holds is read as TAP consumers read it (lines that are not TAP are the
 * test's own output, and skipped).
 */
export async function* readTap(chunks: AsyncIterable<Buffer>, shownAs: string): AsyncGenerator<TapEvent[]> {
  const decoder = new TextDecoder('utf-8');
  let bytes = 0;
  const reader = new TapEventReader(shownAs);
  try {
    for await (const chunk of chunks) {
      bytes += chunk.length;
      reader.write(decoder.decode(chunk, { stream: true }));
      const events = reader.take();
      if (events.length > 0) yield events;
    }
    if (bytes === 0) throw new ReportReadError('TAP_EMPTY', shownAs, `${shownAs}: the file is empty.`);
    reader.end(decoder.decode());
    if (!reader.sawTap) {
      throw new ReportReadError(
        'TAP_NOT_TAP',
        shownAs,
        `${shownAs}: not a TAP report: it has no TAP version, plan or test point. ${FORMATS_SENTENCE}`,
      );
    }
    const events = reader.take();
    if (events.length > 0) yield events;
  } catch (error) {
    throw unreadable(error, shownAs);
  }
}

/** Turns tap-parser's events into TapEvents, handing it the stream a line at a time. */
class TapEventReader {
  private readonly parser = new Parser();
  /** The line being read, up to MAX_TAP_LINE characters; past that, the rest of it is skipped. */
  private partial = '';
  private skipping = false;
  /** Lines handed to the parser: the number of the one it reads. */
  private line = 0;
  private readonly longLines = { count: 0, firstLine: 0 };
  /** The YAML block being read, held until its end so that one too long is dropped whole. */
  private yaml: YamlBlock | undefined;
  private readonly longDiagnostics = { count: 0, firstLine: 0 };
  /** The last line given to the parser outside a YAML block: a block starts right after a test point. */
  private lastLine = '';
  private readonly root: Level = newLevel(undefined, '', undefined);
  private events: TapEvent[] = [];
  private points = 0;
  /**
   * Whether top-level comments name the points after them (tape), decided at the first
   * top-level point or subtest: yes when comments came first, and no plan and no `# Subtest`.
   */
  private commentsName: boolean | undefined;
  /** Before that decision: a plain comment came, a `# Subtest` comment, a plan before any comment. */
  private readonly before = { comment: false, subtestComment: false, plan: false };
  /** tape's skipped tests (`# SKIP <name>`) seen before the decision, added if comments name tests. */
  private readonly skippedBefore: string[] = [];
  /** The name the last top-level comment gave, in a stream whose comments name tests. */
  private commentName: string | undefined;
  private bailout: string | undefined;
  private ending = false;
  /** A line of TAP was read: a version, a plan, a test point, a subtest or a bail out. */
  sawTap = false;

  constructor(private readonly shownAs: string) {
    this.listen(this.parser, this.root);
    // tap-parser writes a version and a plan of its own for a stream that has neither, at its end.
    this.parser.on('version', () => {
      if (!this.ending) this.sawTap = true;
    });
    this.parser.on('plan', () => {
      if (this.parser.syntheticPlan) return;
      this.sawTap = true;
      // A plan first (Test::More, bats); tape's comes at the end.
      if (!this.before.comment) this.before.plan = true;
    });
    this.parser.on('bailout', (reason: string) => {
      this.sawTap = true;
      this.bailout ??= reason;
    });
    this.parser.on('comment', (comment: string) => this.topComment(comment.trimEnd()));
    this.parser.on(
      'complete',
      (results: { count: number; plan: { start: number | null; end: number | null } }) =>
        this.complete(results),
    );
  }

  write(text: string): void {
    let start = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
      this.addText(text.slice(start, newline + 1));
      this.feedLine();
      start = newline + 1;
    }
    if (start < text.length) this.addText(text.slice(start));
  }

  end(text: string): void {
    this.write(text);
    if (this.partial !== '') this.feedLine();
    this.endYaml();
    if (this.longLines.count > 0) this.events.push({ kind: 'long-lines', ...this.longLines });
    if (this.longDiagnostics.count > 0) {
      this.events.push({ kind: 'long-diagnostics', ...this.longDiagnostics });
    }
    this.ending = true;
    this.parser.end();
  }

  /** More of the line being read, kept up to MAX_TAP_LINE characters (and its newline). */
  private addText(text: string): void {
    if (this.skipping) {
      if (text.endsWith('\n')) this.partial += '\n';
      return;
    }
    const room = MAX_TAP_LINE - this.partial.length;
    if (text.length <= room || (text.length === room + 1 && text.endsWith('\n'))) {
      this.partial += text;
      return;
    }
    this.partial += text.slice(0, room) + (text.endsWith('\n') ? '\n' : '');
    this.skipping = true;
    this.longLines.count += 1;
    if (this.longLines.count === 1) this.longLines.firstLine = this.line + 1;
  }

  /** The line read so far, to the parser. */
  private feedLine(): void {
    const line = this.partial;
    this.partial = '';
    this.skipping = false;
    this.line += 1;
    this.toParser(line);
  }

  /** A line to the parser, or to the YAML block it is in, which goes to the parser at its end. */
  private toParser(line: string): void {
    const yaml = this.yaml;
    if (yaml && line !== `${yaml.indent}...\n` && line.startsWith(yaml.indent)) {
      this.addYamlLine(yaml, line);
      return;
    }
    if (yaml) {
      const closing = line === `${yaml.indent}...\n`;
      if (closing) yaml.lines.push(line);
      this.endYaml();
      if (closing) return;
    }
    const start = TEST_POINT.test(this.lastLine) ? YAML_START.exec(line) : null;
    this.lastLine = line;
    if (start) {
      this.yaml = { indent: start[1]!, lines: [line], size: 0, firstLine: this.line, dropped: false };
      return;
    }
    this.parser.write(line);
  }

  private addYamlLine(yaml: YamlBlock, line: string): void {
    yaml.size += line.length;
    if (!yaml.dropped && yaml.size > MAX_TAP_DIAGNOSTICS) {
      yaml.dropped = true;
      yaml.lines = yaml.lines.filter(
        (kept, at) => at === 0 || YAML_DURATION.test(kept.slice(yaml.indent.length)),
      );
      this.longDiagnostics.count += 1;
      if (this.longDiagnostics.count === 1) this.longDiagnostics.firstLine = yaml.firstLine;
    }
    if (!yaml.dropped || YAML_DURATION.test(line.slice(yaml.indent.length))) yaml.lines.push(line);
  }

  /** The block held, to the parser: whole, or (dropped) its opening, its duration and its end. */
  private endYaml(): void {
    const yaml = this.yaml;
    if (!yaml) return;
    this.yaml = undefined;
    for (const line of yaml.lines) this.parser.write(line);
  }

  take(): TapEvent[] {
    const events = this.events;
    this.events = [];
    return events;
  }

  /** Every level's subtests and test points. */
  private listen(parser: Parser, level: Level): void {
    parser.on('child', (child: Parser) => {
      this.sawTap = true;
      if (child.level > MAX_TAP_DEPTH) throw this.tooDeep();
      if (level === this.root) this.decide(false);
      const name = child.name ?? '';
      const file = level === this.root && TEST_FILE.test(name) ? name : undefined;
      level.child = newLevel(level, name, file);
      this.listen(child, level.child);
    });
    parser.on('assert', (result: Result) => {
      this.sawTap = true;
      if (level === this.root) this.decide(true);
      this.point(level, result);
    });
  }

  private point(level: Level, result: Result): void {
    const { ok, skip, todo, time, diag, name } = result;
    const point = { ok, skip, todo, time, diag, name, index: ++this.points, subtest: false };
    const failed = !ok && !todo && !skip;
    const child = result.closingTestPoint ? level.child : undefined;
    if (!child) {
      if (failed) level.failed += 1;
      this.add({ level, point });
      return;
    }
    level.child = undefined;
    if (child.name === '') {
      child.name = name;
      for (const pending of child.held.splice(0)) this.add(pending);
    }
    level.failed += child.failed;
    // A subtest that failed with nothing inside it failing failed on its own; a test file's
    // is the file's failure (titles []).
    if (failed && child.failed === 0) {
      level.failed += 1;
      if (child.file === undefined) this.add({ level, point: { ...point, subtest: true } });
      else {
        const { name: _file, ...rest } = point;
        this.events.push({ kind: 'point', point: { ...rest, subtest: true, file: child.file, titles: [] } });
      }
    }
  }

  /**
   * A result, named now, or held by the nearest subtest that has no name yet; a top-level one
   * after the comment that names it, if any (`byComment`).
   */
  private add(pending: Pending, byComment = true): void {
    const { level, point } = pending;
    const titles: string[] = [];
    let file: string | undefined;
    for (let at: Level | undefined = level; at && at !== this.root; at = at.parent) {
      if (at.name === '') {
        at.held.push(pending);
        return;
      }
      if (file === undefined && at.file !== undefined) file = at.file;
      if (file === undefined) titles.unshift(at.name);
    }
    if (level === this.root && byComment && this.commentName !== undefined) titles.unshift(this.commentName);
    const { name, ...rest } = point;
    this.events.push({ kind: 'point', point: { ...rest, file, titles: [...titles, name] } });
  }

  /** Nested deeper than MAX_TAP_DEPTH: the report is not read further (thrown out of the parser's write). */
  private tooDeep(): ReportReadError {
    return new ReportReadError(
      'TAP_TOO_DEEP',
      this.shownAs,
      `${this.shownAs}:${this.line}: its subtests nest more than ${MAX_TAP_DEPTH} levels deep; testrun upload reads TAP nested up to ${MAX_TAP_DEPTH} levels (a level per test file, describe or t.test). Write the report with fewer levels, or split it.`,
      this.line,
    );
  }

  /** A top-level comment: in a stream whose comments name its tests, the name of the points after it. */
  private topComment(comment: string): void {
    if (SUBTEST_COMMENT.test(comment)) {
      this.before.subtestComment = true;
      return;
    }
    if (this.commentsName === false) return;
    this.before.comment = true;
    const skipped = SKIPPED_TEST_COMMENT.exec(comment)?.[1];
    if (skipped !== undefined) {
      this.commentName = undefined;
      if (this.commentsName) this.skippedTest(skipped);
      else this.skippedBefore.push(skipped);
      return;
    }
    this.commentName = TODO_TEST_COMMENT.exec(comment)?.[1] ?? comment.replace(/^#\s*/, '');
  }

  /**
   * Whether comments name tests: only where, as in tape's streams, the first top-level test
   * point came after comments, and after no plan and no `# Subtest` (node --test writes a test's
   * console output as comments before its `# Subtest`; Test::More and bats put the plan first).
   */
  private decide(point: boolean): void {
    if (this.commentsName !== undefined) return;
    const { comment, subtestComment, plan } = this.before;
    this.commentsName = point && comment && !subtestComment && !plan;
    if (!this.commentsName) this.commentName = undefined;
    else for (const name of this.skippedBefore) this.skippedTest(name);
    this.skippedBefore.length = 0;
  }

  /** tape's `# SKIP <name>`: a skipped test, which has no test point. */
  private skippedTest(name: string): void {
    const point = { ok: true, skip: true, todo: false, time: null, diag: null, name };
    this.add({ level: this.root, point: { ...point, index: ++this.points, subtest: false } }, false);
  }

  private complete({
    count,
    plan,
  }: {
    count: number;
    plan: { start: number | null; end: number | null };
  }): void {
    // A stream of comments only (tape's, every test skipped).
    this.decide(true);
    const reason =
      this.bailout !== undefined
        ? `it bailed out${this.bailout === '' ? '' : ` (Bail out! ${this.bailout})`}`
        : plan.start === null || plan.end === null
          ? count > 0
            ? 'it ends without a plan (1..N): was the test process stopped while it wrote it?'
            : undefined
          : count < plan.end - plan.start + 1
            ? `its plan was ${plan.end - plan.start + 1} tests, ${count} reported`
            : undefined;
    if (reason !== undefined) {
      this.events.push({ kind: 'incomplete', incomplete: { reason, nothingFailed: this.root.failed === 0 } });
    }
  }
}

function newLevel(parent: Level | undefined, name: string, file: string | undefined): Level {
  return { parent, name, file, failed: 0, child: undefined, held: [] };
}
