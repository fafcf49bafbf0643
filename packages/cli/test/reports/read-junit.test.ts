import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { tempDir } from '@testrun/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { ReportReadError } from '../../src/reports/open-report.js';
import { type JunitEvent, MAX_JUNIT_DEPTH, readJunit } from '../../src/reports/read-junit.js';
import { eventsOfReport } from './report-events.js';

const dir = tempDir('testrun-read-junit-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let written = 0;
/** `content` in a fresh file; a string is written as UTF-8. */
function reportFile(content: string | Buffer, name = `report-${written++}.xml`): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
}

function eventsOf(file: string): Promise<JunitEvent[]> {
  return eventsOfReport(file, 'reports/junit.xml', 'junit', readJunit);
}

async function testcasesOf(file: string) {
  return (await eventsOf(file)).flatMap((event) => (event.kind === 'testcase' ? [event.testcase] : []));
}

async function readError(file: string): Promise<ReportReadError> {
  const error = await eventsOf(file).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ReportReadError);
  return error as ReportReadError;
}

const SMALL_REPORT = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="suite of suites">
  <testsuite name="math" file="test/math.test.js">
    <testcase classname="math" name="adds" time="0.012"/>
    <testcase classname="math" name="divides" time="0.5">
      <failure message="expected 2">AssertionError: expected 2 &amp; got 3</failure>
    </testcase>
    <testcase classname="math" name="multiplies" file="test/other.test.js">
      <skipped/>
    </testcase>
    <testcase classname="math" name="errs"><error message="boom"/></testcase>
    <testcase classname="math" name="both"><skipped/><failure/></testcase>
  </testsuite>
</testsuites>
`;

describe('reading a JUnit report', () => {
  it('yields each testcase with its names, time, file, suite and the line of its tag', async () => {
    const cases = await testcasesOf(reportFile(SMALL_REPORT));
    expect(cases).toEqual([
      {
        name: 'adds',
        classname: 'math',
        file: 'test/math.test.js',
        suiteName: 'math',
        suite: 1,
        time: '0.012',
        outcome: 'passed',
        line: 4,
      },
      {
        name: 'divides',
        classname: 'math',
        file: 'test/math.test.js',
        suiteName: 'math',
        suite: 1,
        time: '0.5',
        outcome: 'failed',
        line: 5,
        failure: { message: 'expected 2', text: 'AssertionError: expected 2 & got 3' },
      },
      {
        name: 'multiplies',
        classname: 'math',
        file: 'test/other.test.js',
        suiteName: 'math',
        suite: 1,
        time: undefined,
        outcome: 'skipped',
        line: 8,
      },
      expect.objectContaining({
        name: 'errs',
        outcome: 'failed',
        line: 11,
        failure: { message: 'boom', text: '' },
      }),
      expect.objectContaining({ name: 'both', outcome: 'failed', line: 12 }),
    ]);
  });

  it('keeps a failed testcase’s first <failure> or <error>: its message and text (CDATA too), bounded', async () => {
    const long = 'x'.repeat(30_000);
    const cases = await testcasesOf(
      reportFile(`<testsuite name="s">
  <testcase name="cdata"><failure message="m"><![CDATA[Error: <boom>
    at a (spec/a.js:3:1)]]></failure><error message="second">ignored</error><system-out>log</system-out></testcase>
  <testcase name="long"><failure>${long}</failure></testcase>
  <testcase name="passes"><system-out>not a failure</system-out></testcase>
</testsuite>`),
    );
    expect(cases[0]?.failure).toEqual({ message: 'm', text: 'Error: <boom>\n    at a (spec/a.js:3:1)' });
    expect(cases[1]?.failure?.text).toHaveLength(20_000);
    expect(cases[2]?.failure).toBeUndefined();
  });

  it('gives the first elements once, for telling which framework wrote the report', async () => {
    const heads = (await eventsOf(reportFile(SMALL_REPORT))).filter((event) => event.kind === 'head');
    expect(heads).toEqual([
      {
        kind: 'head',
        head: {
          root: expect.objectContaining({ name: 'testsuites', attributes: { name: 'suite of suites' } }),
          firstSuite: expect.objectContaining({
            name: 'testsuite',
            attributes: expect.objectContaining({ name: 'math' }),
          }),
        },
      },
    ]);
  });

  it('reads a <testsuite> root and nested suites, each testcase under its nearest suite', async () => {
    const cases = await testcasesOf(
      reportFile(`<testsuite name="outer" file="spec/outer.spec.js">
  <testcase name="top"/>
  <testsuite name="inner">
    <testsuite name="innermost" file="spec/innermost.spec.js"><testcase name="deep"/></testsuite>
    <testcase name="middle"/>
  </testsuite>
  <testcase name="after"/>
</testsuite>`),
    );
    expect(cases.map(({ name, suiteName, file }) => ({ name, suiteName, file }))).toEqual([
      { name: 'top', suiteName: 'outer', file: 'spec/outer.spec.js' },
      { name: 'deep', suiteName: 'innermost', file: 'spec/innermost.spec.js' },
      { name: 'middle', suiteName: 'inner', file: 'spec/outer.spec.js' },
      { name: 'after', suiteName: 'outer', file: 'spec/outer.spec.js' },
    ]);
  });

  it('leaves missing attributes undefined rather than guessing', async () => {
    const [testcase] = await testcasesOf(
      reportFile('<testsuites><testsuite><testcase/></testsuite></testsuites>'),
    );
    expect(testcase).toEqual({
      name: undefined,
      classname: undefined,
      file: undefined,
      suiteName: undefined,
      suite: 1,
      time: undefined,
      outcome: 'passed',
      line: 1,
    });
  });

  it('reports a suite with an <error> of its own, and how many of its testcases failed', async () => {
    const events = await eventsOf(
      reportFile(`<testsuites>
  <testsuite name="broken.test.js" errors="1" tests="0">
    <error message="Cannot find module './db'">Error: Cannot find module './db'</error>
  </testsuite>
  <testsuite name="half.test.js" file="half.test.js">
    <testcase name="fails"><failure/></testcase>
    <failure message="afterAll threw"/>
  </testsuite>
</testsuites>`),
    );
    expect(events.filter((event) => event.kind === 'suite-failure')).toEqual([
      {
        kind: 'suite-failure',
        suite: { name: 'broken.test.js', file: undefined, line: 2, failedTestcases: 0 },
      },
      {
        kind: 'suite-failure',
        suite: { name: 'half.test.js', file: 'half.test.js', line: 5, failedTestcases: 1 },
      },
    ]);
  });

  it('ignores what JUnit does not define: properties, logs, reruns, unknown elements', async () => {
    const cases = await testcasesOf(
      reportFile(`<testsuite name="s">
  <properties><property name="java.version" value="21"/></properties>
  <testcase name="flaky"><flakyFailure message="timeout"><stackTrace>…</stackTrace></flakyFailure><system-out><![CDATA[<failure>not a tag</failure>]]></system-out></testcase>
  <testcase name="annotated"><properties><property name="owner" value="team-a"/></properties><custom><failure/></custom></testcase>
  <system-err>noise &lt;error&gt;</system-err>
</testsuite>`),
    );
    expect(cases.map(({ name, outcome }) => ({ name, outcome }))).toEqual([
      { name: 'flaky', outcome: 'passed' },
      { name: 'annotated', outcome: 'passed' },
    ]);
  });

  it('reads a gzip-compressed report, whatever its name', async () => {
    const gz = gzipSync(Buffer.from(SMALL_REPORT));
    const byName = await testcasesOf(reportFile(gz, 'junit.xml.gz'));
    const byContent = await testcasesOf(reportFile(gz, 'junit-compressed.xml'));
    expect(byName.map((testcase) => testcase.name)).toEqual([
      'adds',
      'divides',
      'multiplies',
      'errs',
      'both',
    ]);
    expect(byContent).toEqual(byName);
  });

  it('decodes UTF-8 with a byte order mark, and the encoding an XML declaration names', async () => {
    const utf8 = await testcasesOf(
      reportFile(`\uFEFF<testsuite><testcase name="crème brûlée 🚀"/></testsuite>`),
    );
    const latin1 = await testcasesOf(
      reportFile(
        Buffer.from(
          '<?xml version="1.0" encoding="ISO-8859-1"?><testsuite><testcase name="crème brûlée"/></testsuite>',
          'latin1',
        ),
      ),
    );
    const utf16 = await testcasesOf(
      reportFile(
        Buffer.concat([
          Buffer.from([0xff, 0xfe]),
          Buffer.from('<testsuite><testcase name="日本語"/></testsuite>', 'utf16le'),
        ]),
      ),
    );
    expect([utf8[0]?.name, latin1[0]?.name, utf16[0]?.name]).toEqual([
      'crème brûlée 🚀',
      'crème brûlée',
      '日本語',
    ]);
  });

  it('reads a report far larger than one chunk, with names split across chunks', async () => {
    const count = 20_000;
    const body = Array.from(
      { length: count },
      (_, i) => `<testcase classname="pkg.Class${i % 7}" name="case ${i} é" time="0.001"/>`,
    ).join('\n');
    const cases = await testcasesOf(reportFile(`<testsuite name="big">\n${body}\n</testsuite>`));
    expect(cases).toHaveLength(count);
    expect(cases[count - 1]).toMatchObject({ name: `case ${count - 1} é`, line: count + 1 });
  });
});

describe('reading what writers put around their testcases', () => {
  it('reads a status or result attribute that says the testcase did not run as skipped, one that says it failed as failed', async () => {
    const cases = await testcasesOf(
      reportFile(`<testsuites>
  <testsuite name="CartTest">
    <testcase name="AddsTax" status="run" result="completed" classname="CartTest"/>
    <testcase name="DISABLED_Refunds" status="notrun" result="suppressed" classname="CartTest"/>
    <testcase name="NeedsNetwork" status="run" result="skipped" classname="CartTest"/>
    <testcase name="legacy" status="disabled"/>
    <testcase name="crashes" status="fail"/>
    <testcase name="fails anyway" status="notrun"><failure message="boom"/></testcase>
  </testsuite>
</testsuites>`),
    );
    expect(cases.map(({ name, outcome }) => [name, outcome])).toEqual([
      ['AddsTax', 'passed'],
      ['DISABLED_Refunds', 'skipped'],
      ['NeedsNetwork', 'skipped'],
      ['legacy', 'skipped'],
      ['crashes', 'failed'],
      ['fails anyway', 'failed'],
    ]);
  });

  it('gives the file of a "Root Suite" to the suites after it that name none (Cypress), until the next one', async () => {
    const cases = await testcasesOf(
      reportFile(`<testsuites name="Mocha Tests">
  <testsuite name="Root Suite" file="cypress/e2e/login.cy.js" tests="0"/>
  <testsuite name="form"><testcase name="form shows errors" classname="shows errors"/></testsuite>
  <testsuite name="Root Suite" file="cypress/e2e/signup.cy.js" tests="0"/>
  <testsuite name="form"><testcase name="form shows errors" classname="shows errors"/></testsuite>
  <testsuite name="own" file="cypress/e2e/own.cy.js"><testcase name="own"/></testsuite>
</testsuites>`),
    );
    expect(cases.map(({ name, file }) => [name, file])).toEqual([
      ['form shows errors', 'cypress/e2e/login.cy.js'],
      ['form shows errors', 'cypress/e2e/signup.cy.js'],
      ['own', 'cypress/e2e/own.cy.js'],
    ]);
  });

  it('numbers each <testsuite>, so that suites of the same name stay apart', async () => {
    const cases = await testcasesOf(
      reportFile(`<testsuites>
  <testsuite name="utils"><testcase name="formats"/></testsuite>
  <testsuite name="utils"><testcase name="formats"/><testsuite name="inner"><testcase name="deep"/></testsuite><testcase name="after"/></testsuite>
</testsuites>`),
    );
    expect(cases.map(({ name, suite }) => [name, suite])).toEqual([
      ['formats', 1],
      ['formats', 2],
      ['deep', 3],
      ['after', 2],
    ]);
  });

  it('counts the failed testcases of nested suites towards a suite that failed on its own', async () => {
    const events = await eventsOf(
      reportFile(`<testsuite name="outer">
  <testsuite name="inner"><testcase name="a"><failure/></testcase><testcase name="b"><error/></testcase></testsuite>
  <error message="afterAll threw"/>
</testsuite>`),
    );
    expect(events.filter((event) => event.kind === 'suite-failure')).toEqual([
      { kind: 'suite-failure', suite: { name: 'outer', file: undefined, line: 1, failedTestcases: 2 } },
    ]);
  });

  it('reads control characters XML 1.0 forbids as spaces, and says how many there were', async () => {
    // dart-junitreport copies colour codes from test output into the report as they are.
    const events = await eventsOf(
      reportFile(
        '<testsuites>\n<testsuite name="cart_test">\n<testcase name="adds\u0001tax"><failure>\u001b[31mExpected: 2\u001b[0m\u0000</failure></testcase>\n</testsuite>\n</testsuites>',
      ),
    );
    expect(events.flatMap((event) => (event.kind === 'testcase' ? [event.testcase.name] : []))).toEqual([
      'adds tax',
    ]);
    expect(events.at(-1)).toEqual({ kind: 'replaced-characters', count: 4 });
  });

  it("reads references to characters XML 1.0 forbids as spaces, as Dart's converter writes them, and counts them", async () => {
    const events = await eventsOf(
      reportFile(
        '<testsuites>\n<testsuite name="cart_test">\n<testcase name="rings&#x7;twice"><system-out>bell &#8;! nul &#0; esc &#x1B;[0m tab &#9; &#65;</system-out><failure/></testcase>\n</testsuite>\n</testsuites>',
      ),
    );
    expect(events.flatMap((event) => (event.kind === 'testcase' ? [event.testcase] : []))).toMatchObject([
      { name: 'rings twice', outcome: 'failed' },
    ]);
    // Tab and "A" are allowed: only the four forbidden ones are counted.
    expect(events.at(-1)).toEqual({ kind: 'replaced-characters', count: 4 });
  });

  it('reads a forbidden reference that a 64 KB chunk boundary cuts in two', async () => {
    const head = '<testsuites>\n<testsuite name="cart_test">\n<testcase name="a"><system-out>';
    // "&#x" ends the first 64 KB chunk; "1B;" starts the second.
    const padding = 'x'.repeat(64 * 1024 - head.length - '&#x'.length);
    const events = await eventsOf(
      reportFile(`${head}${padding}&#x1B;</system-out></testcase>\n</testsuite>\n</testsuites>`),
    );
    expect(events.filter((event) => event.kind === 'testcase')).toHaveLength(1);
    expect(events.at(-1)).toEqual({ kind: 'replaced-characters', count: 1 });
  });

  it('still refuses character references that are malformed, and entities it does not know', async () => {
    for (const broken of ['&#;', '&#xZZ;', '&#8', '&bell;']) {
      const error = await readError(
        reportFile(
          `<testsuites>\n<testsuite name="a">\n<testcase name="x"><system-out>${broken}</system-out></testcase></testsuite></testsuites>`,
        ),
      );
      expect(error.code, broken).toBe('JUNIT_MALFORMED');
      expect(error.message, broken).toMatch(/^reports\/junit\.xml:3:\d+: not well-formed XML \(.+\)\./);
    }
  });

  it('still refuses a report with forbidden characters that is broken besides', async () => {
    const error = await readError(
      reportFile('<testsuites>\n<testsuite name="a\u0007">\n<testcase name="x">'),
    );
    expect(error.code).toBe('JUNIT_MALFORMED');
  });

  // Reading is linear in the depth (a reader that walked the open elements for each one was
  // quadratic: minutes at 80,000 levels), and the depth is bounded, since memory is not.
  it(`reads a report nested ${MAX_JUNIT_DEPTH} levels deep, each testcase under its nearest suite`, async () => {
    // <testsuites>, the suites, and the deepest one's <testcase> and <failure>.
    const depth = MAX_JUNIT_DEPTH - 3;
    const open = Array.from(
      { length: depth },
      (_, i) => `<testsuite name="s${i}"><testcase name="t${i}"><failure/></testcase>`,
    );
    const events = await eventsOf(
      reportFile(`<testsuites>${open.join('')}<error/>${'</testsuite>'.repeat(depth)}</testsuites>`),
    );
    const cases = events.flatMap((event) => (event.kind === 'testcase' ? [event.testcase] : []));
    expect(cases).toHaveLength(depth);
    expect(cases.at(-1)).toMatchObject({ name: `t${depth - 1}`, suiteName: `s${depth - 1}`, suite: depth });
    expect(events.filter((event) => event.kind === 'suite-failure')).toEqual([
      {
        kind: 'suite-failure',
        suite: { name: `s${depth - 1}`, file: undefined, line: 1, failedTestcases: 1 },
      },
    ]);
  });
});

describe('a report that cannot be read', () => {
  it('refuses one nested deeper than 1,000 levels at its first element past them, reading no further', async () => {
    const lines = ['<testsuites>', ...Array.from({ length: 5_000 }, (_, i) => `<testsuite name="s${i}">`)];
    const error = await readError(reportFile(lines.join('\n')));
    expect(error).toMatchObject({
      code: 'JUNIT_TOO_DEEP',
      line: 1_001,
      message:
        'reports/junit.xml:1001: its elements nest more than 1,000 levels deep; testrun upload reads JUnit XML nested up to 1,000 levels. Write the report with fewer levels.',
    });
  });

  it('names the file, line and column of malformed XML and says it ends too early when cut short', async () => {
    const error = await readError(
      reportFile('<testsuites>\n  <testsuite name="a">\n    <testcase name="x"/>\n    <testcase name="y'),
    );
    expect(error.code).toBe('JUNIT_MALFORMED');
    expect(error.line).toBe(4);
    expect(error.message).toMatch(
      /^reports\/junit\.xml:4:\d+: not well-formed XML \(.+\)\. It ends too early/,
    );
  });

  it('names the line of a mismatched close tag', async () => {
    const error = await readError(
      reportFile('<testsuites>\n<testsuite name="a">\n<testcase name="x">\n</testsuite>\n</testsuites>'),
    );
    expect(error.message).toBe('reports/junit.xml:4:12: not well-formed XML (unexpected close tag).');
  });

  it('refuses an undefined entity and text after the root', async () => {
    const entity = await readError(reportFile('<testsuite>\n<testcase name="a &nbsp; b"/>\n</testsuite>'));
    const trailing = await readError(reportFile('<testsuite></testsuite>\n<testsuite></testsuite>'));
    expect(entity.message).toMatch(/^reports\/junit\.xml:2:\d+: not well-formed XML \(undefined entity\)/);
    expect(trailing.message).toMatch(
      /^reports\/junit\.xml:2:\d+: not well-formed XML \(documents may contain only one root\)/,
    );
  });

  it('says which root element it found in XML that is not a JUnit report', async () => {
    const error = await readError(
      reportFile('<?xml version="1.0"?>\n<coverage line-rate="0.9"><packages/></coverage>'),
    );
    expect(error.code).toBe('JUNIT_NOT_JUNIT');
    expect(error.message).toBe(
      'reports/junit.xml:2: not a JUnit XML report: its root element is <coverage>, expected <testsuites> or <testsuite>. Give testrun upload JUnit XML, CTRF JSON or TAP reports.',
    );
  });

  it('says an empty file is empty', async () => {
    const error = await readError(reportFile(''));
    expect(error.message).toBe('reports/junit.xml: the file is empty.');
  });

  it('says a missing file is missing and a directory is a directory', async () => {
    const missing = await readError(path.join(dir, 'nothing-here.xml'));
    const directory = await readError(dir);
    expect(missing.code).toBe('REPORT_UNREADABLE');
    expect(missing.message).toBe('reports/junit.xml: cannot be read: no such file');
    expect(directory.message).toBe(
      'reports/junit.xml: cannot be read: it is a directory; give files, or a glob such as "reports/**/*.xml"',
    );
  });

  it('says a truncated gzip file does not unzip', async () => {
    const gz = gzipSync(Buffer.from(SMALL_REPORT));
    const error = await readError(reportFile(gz.subarray(0, gz.length - 20), 'cut.xml.gz'));
    expect(error.code).toBe('REPORT_UNREADABLE');
    expect(error.message).toMatch(
      /^reports\/junit\.xml: cannot be read: it starts like gzip but does not unzip/,
    );
  });

  it('names an encoding it cannot decode', async () => {
    const error = await readError(reportFile('<?xml version="1.0" encoding="EBCDIC-XYZ"?><testsuite/>'));
    expect(error.message).toBe(
      'reports/junit.xml:1: its XML declaration names the encoding "EBCDIC-XYZ", which Node cannot decode; write the report as UTF-8.',
    );
  });
});
