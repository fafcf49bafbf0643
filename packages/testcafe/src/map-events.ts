import type { FileReport, RawAttachment, RawTest } from '@testrun/core';
import type { TestDoneRecord } from './record-events.js';

// TestCafe's tests as FileReports. TestCafe runs every test in every browser of the task and
// reports it once, when it is done in all of them; each browser's run is a result of its own,
// its browser the project (docs/design/testcafe.md).

/**
 * Each configured browser's label: the alias without its command-line arguments
 * (`chromium:headless` of `chromium:headless --no-sandbox`) where no other browser of the task
 * has the same, else the whole alias, arguments included.
 */
export function browserLabels(aliases: readonly string[]): Map<string, string> {
  const short = (alias: string) => alias.replace(/\s+-\S.*$/s, '').trim();
  const counts = new Map<string, number>();
  for (const alias of aliases) counts.set(short(alias), (counts.get(short(alias)) ?? 0) + 1);
  return new Map(
    aliases.map((alias) => [alias, counts.get(short(alias)) === 1 ? short(alias) : alias.trim()]),
  );
}

/**
 * One FileReport per browser the test ran in: the fixture's file, the browser's label as the
 * project, the fixture's and the test's names. skipped (test.skip, fixture.skip); failed when
 * TestCafe kept errors of the browser's last attempt (in quarantine mode, its verdict on every
 * attempt); else passed. The attempts go with a test that needed more than one.
 */
export function mapTestDone(record: TestDoneRecord, labels: ReadonlyMap<string, string>): FileReport[] {
  const browsers = record.browsers.length > 0 ? record.browsers : [undefined];
  return browsers.map((browser) => {
    const errors = browser ? record.errors.filter((error) => belongsTo(error, browser)) : record.errors;
    const status = record.skipped ? 'skipped' : errors.length > 0 ? 'failed' : 'passed';
    const attempts = browser?.attempts ?? 1;
    const test: RawTest = {
      titles: [record.fixture.name, record.name],
      status,
      duration: record.skipped ? 0 : record.durationMs,
      attempts: status === 'passed' && attempts > 1 ? attempts : undefined,
      failure:
        status === 'failed' ? { errors: errors.map(({ text }) => asError(text)), attempts } : undefined,
      attachments: browser ? filesOf(record, browser) : filesOf(record, undefined),
    };
    const label = browser
      ? (labels.get(browser.alias) ?? browserLabels([browser.alias]).get(browser.alias))
      : undefined;
    return { file: record.fixture.path, project: label ? { name: label } : undefined, tests: [test] };
  });
}

/**
 * The screenshots and videos TestCafe made in this browser (by the test runs of its attempts),
 * each with its attempt in quarantine mode; all of them when TestCafe names no browser.
 */
function filesOf(
  record: TestDoneRecord,
  browser: TestDoneRecord['browsers'][number] | undefined,
): RawAttachment[] | undefined {
  const runs = new Set(browser?.testRunIds ?? [browser?.testRunId ?? '']);
  const files = (record.files ?? []).filter(
    (file) => browser === undefined || file.testRunId === '' || runs.has(file.testRunId),
  );
  if (files.length === 0) return undefined;
  return files.map(({ kind, path, attempt }) => ({
    name: kind === 'video' ? 'video' : 'screenshot',
    path,
    ...(attempt === undefined ? {} : { attempt }),
  }));
}

function belongsTo(
  error: TestDoneRecord['errors'][number],
  browser: TestDoneRecord['browsers'][number],
): boolean {
  if (error.testRunId !== '' && browser.testRunId !== '') return error.testRunId === browser.testRunId;
  return error.userAgent === browser.prettyUserAgent;
}

/**
 * TestCafe's formatted error as a message and a stack: the text before its `Browser:` line
 * (the assertion and its diff, or a page that did not load), and its `at …` lines.
 */
function asError(text: string): { message: string; stack: string } {
  const lines = text.split('\n');
  const browserLine = lines.findIndex((line) => /^Browser: /.test(line.trim()));
  const firstFrame = lines.findIndex((line) => /^\s+at /.test(line));
  const messageEnd = browserLine >= 0 ? browserLine : firstFrame >= 0 ? firstFrame : lines.length;
  return {
    message: lines.slice(0, messageEnd).join('\n').trim(),
    stack: firstFrame >= 0 ? lines.slice(firstFrame).join('\n') : '',
  };
}
