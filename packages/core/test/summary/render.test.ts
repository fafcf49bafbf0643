import { htmlElements, renderGfm } from '@testrun/test-utils/gfm';
import { describe, expect, it } from 'vitest';
import { DEFAULT_STATUS_MAP } from '../../src/options/option-specs.js';
import { markdownText } from '../../src/summary/markdown-text.js';
import { renderSummary, type SummaryInput } from '../../src/summary/render.js';
import { RunTally, type TalliedResult } from '../../src/summary/tally.js';
import { testAnchor } from '../../src/summary/test-anchor.js';

// The CI summary's Markdown (docs/design/ci-summary.md#hostile-text), rendered here as GitHub
// renders Markdown (micromark with GitHub's extensions) and read back as a browser parses the HTML.

const PAGE = 'https://testrun.example/runs/r-1';

function summaryOf(results: readonly TalliedResult[], more: Partial<SummaryInput> = {}): string {
  const tally = new RunTally(DEFAULT_STATUS_MAP);
  tally.addAll(results);
  return renderSummary({
    project: 'web',
    framework: 'vitest',
    runId: 'r-1',
    pageUrl: PAGE,
    state: 'failed',
    tally: tally.toJSON(),
    durationMs: 123_456,
    covers: { whole: true },
    statusWords: DEFAULT_STATUS_MAP,
    ...more,
  });
}

const result = (testCase: string, status: string, more: Partial<TalliedResult> = {}): TalliedResult => ({
  testSuite: 'src/math.test.ts',
  testCase,
  status,
  duration: 10,
  ...more,
});

/** The rendered summary's elements and its text, as a reader of the job's page gets them. */
function rendered(markdown: string) {
  const elements = htmlElements(renderGfm(markdown));
  return { elements, tags: new Set(elements.map((element) => element.tag)) };
}

describe('the CI summary', () => {
  const markdown = summaryOf([
    result('Math > adds', 'passed', { duration: 5 }),
    result('Math > carries', 'passed', { duration: 900, details: { attempts: 3 } }),
    result('Math > fails', 'failed', {
      duration: 40,
      details: { message: '\nexpected 2 to be 3\n  at Object.<anonymous> (src/math.test.ts:9:5)' },
    }),
    result('Math > later', 'skipped', { duration: 99_999 }),
  ]);
  const { elements } = rendered(markdown);
  const text = (tag: string) =>
    elements.filter((element) => element.tag === tag).map((element) => element.text);

  it("says the run's state, its counts with flaky apart, its length and its page", () => {
    expect(text('h3')).toEqual(['❌ web · vitest: failed']);
    expect(text('p')[0]).toBe(
      "1 failed · 2 passed (1 flaky) · 1 skipped · 4 tests · 2 min 3 s · the run's page",
    );
    expect(elements.find((element) => element.text === "the run's page")?.attributes.href).toBe(PAGE);
  });

  it('lists each failed test with the first line of its message, linked to its row on the run page', () => {
    const failed = tableRows(elements, 0);
    expect(failed).toEqual([['Math > fails', 'src/math.test.ts', 'expected 2 to be 3']]);
    const link = elements.find((element) => element.tag === 'a' && element.text === 'Math > fails');
    expect(link?.attributes.href).toBe(`${PAGE}#${testAnchor('src/math.test.ts', 'Math > fails')}`);
  });

  it('lists the flaky tests with their attempts, and the slowest that ran, never a skipped one', () => {
    expect(tableRows(elements, 1)).toEqual([['Math > carries', 'src/math.test.ts', '3']]);
    expect(tableRows(elements, 2)).toEqual([
      ['Math > carries', 'src/math.test.ts', '900 ms'],
      ['Math > fails', 'src/math.test.ts', '40 ms'],
      ['Math > adds', 'src/math.test.ts', '5 ms'],
    ]);
    expect(text('summary')).toEqual(['The 3 slowest tests']);
  });

  it('says what its counts cover', () => {
    expect(text('sub')).toEqual(['testrun · Run r-1 · these counts are the whole run']);
    const partial = summaryOf([], { covers: { whole: false, why: 'the service offers no reads of a run' } });
    expect(rendered(partial).elements.find((element) => element.tag === 'sub')?.text).toBe(
      'testrun · Run r-1 · these counts are what was sent from here: the service offers no reads of a run',
    );
  });

  it('lists ten failed tests, then says how many more and links the rest', () => {
    const many = summaryOf(Array.from({ length: 25 }, (_, index) => result(`fails ${index}`, 'failed')));
    const { elements: shown } = rendered(many);
    expect(tableRows(shown, 0).map((row) => row[0])).toEqual(
      Array.from({ length: 10 }, (_, index) => `fails ${index}`),
    );
    const more = shown.find((element) => element.tag === 'p' && element.text.startsWith('and '));
    expect(more?.text).toBe("and 15 more failed tests: all of them on the run's page");
    expect(shown.find((element) => element.text === "all of them on the run's page")?.attributes.href).toBe(
      `${PAGE}#failed`,
    );
  });

  it('keeps the five slowest of many, longest first', () => {
    const many = summaryOf(
      Array.from({ length: 1000 }, (_, index) =>
        result(`t${index}`, 'passed', { duration: (index * 7919) % 1000 }),
      ),
    );
    expect(tableRows(rendered(many).elements, 0).map((row) => row[2])).toEqual([
      '999 ms',
      '998 ms',
      '997 ms',
      '996 ms',
      '995 ms',
    ]);
  });

  it('shows durations sent in seconds as they are', () => {
    const tally = new RunTally(DEFAULT_STATUS_MAP, 's');
    tally.add(result('slow', 'passed', { duration: 2.5 }));
    expect(tally.toJSON().slowest[0]?.duration).toBe(2500);
  });

  it('names no link where the service gave no page, or a page that is no http(s) URL', () => {
    for (const pageUrl of [undefined, 'javascript:alert(1)']) {
      const { tags } = rendered(summaryOf([result('fails', 'failed')], { pageUrl }));
      expect(tags.has('a')).toBe(false);
    }
  });
});

describe('hostile names and messages', () => {
  const HOSTILE = [
    'a | b || c',
    '`code` and ```fence```',
    '</details></table><details open>',
    '<img src=x onerror=alert(1)>',
    '[link](javascript:alert(1))',
    '![image](https://evil.example/x.png)',
    'https://evil.example/autolinked and www.evil.example and me@evil.example',
    '**bold** _em_ ~~strike~~ # heading',
    '&lt;script&gt;alert(1)&lt;/script&gt; &#60;b&#62;',
    '<!-- comment --> <script>alert(1)</script>',
    'line one\nline two\r\n| new | row |',
    'trailing backslash \\',
    '\u202eevil\u202c right-to-left',
  ];
  const results = HOSTILE.flatMap((name) => [
    { testSuite: name, testCase: name, status: 'failed', duration: 1, details: { message: name } },
    { testSuite: name, testCase: name, status: 'passed', duration: 2, details: { attempts: 2 } },
  ]);
  const markdown = summaryOf(results, { project: HOSTILE[2]!, framework: HOSTILE[3]! });
  const { elements, tags } = rendered(markdown);

  it('makes no element of them: only the tables, links and text the summary writes itself', () => {
    expect([...tags].sort()).toEqual(
      [
        'a',
        'details',
        'h3',
        'h4',
        'p',
        'strong',
        'sub',
        'summary',
        'table',
        'tbody',
        'td',
        'th',
        'thead',
        'tr',
      ].sort(),
    );
    for (const element of elements) {
      const allowed =
        element.tag === 'a' ? ['href'] : element.tag === 'td' || element.tag === 'th' ? ['align'] : [];
      expect(Object.keys(element.attributes).filter((name) => !allowed.includes(name))).toEqual([]);
      if (element.tag === 'a')
        expect(element.attributes.href?.startsWith(`${PAGE}#`) || element.attributes.href === PAGE).toBe(
          true,
        );
    }
  });

  it('shows each as the text it is, on one line, in its own cell', () => {
    const failed = tableRows(elements, 0);
    expect(failed).toHaveLength(10);
    HOSTILE.slice(0, 10).forEach((name, index) => {
      const shown = name
        .replace(/[\r\n]+/g, ' ')
        .replace(/[\u202a-\u202e]/g, ' ')
        .trim()
        .replace(/\s+/g, ' ');
      expect(failed[index]!.map((cell) => cell.replace(/\s+/g, ' '))).toEqual([shown, shown, shown]);
    });
    expect(elements.find((element) => element.tag === 'h3')?.text).toBe(
      '❌ </details></table><details open> · <img src=x onerror=alert(1)>: failed',
    );
  });

  it('stays well under GitHub’s 1 MiB for 100,000 results with 10 KB names and messages', () => {
    const huge = 'x'.repeat(10_000);
    const tally = new RunTally(DEFAULT_STATUS_MAP);
    for (let index = 0; index < 100_000; index++) {
      const name = `${HOSTILE[index % HOSTILE.length]}${huge}${index}`;
      tally.add({
        testSuite: name,
        testCase: name,
        status: index % 3 === 0 ? 'failed' : 'passed',
        duration: index,
        details: index % 3 === 0 ? { message: name } : { attempts: 2 },
      });
    }
    const big = renderSummary({
      project: huge,
      framework: huge,
      runId: huge,
      pageUrl: PAGE,
      state: 'failed',
      tally: tally.toJSON(),
      durationMs: 1,
      covers: { whole: true },
      statusWords: DEFAULT_STATUS_MAP,
    });
    expect(Buffer.byteLength(big)).toBeLessThan(64 * 1024);
    expect(big).toContain('and 33,324 more failed tests');
    expect(big).toContain('and 66,656 more flaky tests');
  });
});

describe('markdownText', () => {
  it('cuts at a code point, never inside a surrogate pair', () => {
    expect(markdownText('😀'.repeat(5), 3)).toBe('😀😀…');
  });
});

/** The rows of the `index`th table (header row left out), each cell's text. */

describe('the CI summary of a run whose failures were quarantined', () => {
  const failing = (testCase: string, quarantined: boolean) =>
    result(testCase, 'failed', {
      details: { message: `${testCase} broke` },
      ...(quarantined ? { quarantined } : {}),
    });

  it('reads "passed — 1 quarantined failure", counts it, and still lists the failure with why, marked', () => {
    const { elements } = rendered(
      summaryOf([result('Math > adds', 'passed'), failing('Math > flakes', true)], { state: 'completed' }),
    );
    const text = (tag: string) =>
      elements.filter((element) => element.tag === tag).map((element) => element.text);
    expect(text('h3')).toEqual(['✅ web · vitest: passed — 1 quarantined failure']);
    expect(text('p')[0]).toMatch(/^1 failed \(1 quarantined\) · 1 passed · 2 tests/);
    expect(tableRows(elements, 0)).toEqual([
      ['Math > flakes (quarantined)', 'src/math.test.ts', 'Math > flakes broke'],
    ]);
  });

  it('reads failed when another failure is not quarantined, marking only the quarantined one', () => {
    const { elements } = rendered(
      summaryOf([failing('Math > flakes', true), failing('Math > breaks', false)]),
    );
    expect(elements.filter((element) => element.tag === 'h3').map((element) => element.text)).toEqual([
      '❌ web · vitest: failed',
    ]);
    expect(tableRows(elements, 0).map((row) => row[0])).toEqual([
      'Math > flakes (quarantined)',
      'Math > breaks',
    ]);
  });
});

function tableRows(elements: ReturnType<typeof htmlElements>, index: number): string[][] {
  const tables = elements.filter((element) => element.tag === 'table');
  const table = tables[index];
  if (!table) return [];
  const at = elements.indexOf(table);
  const next = elements.indexOf(tables[index + 1]!, at + 1);
  const inside = elements.slice(at + 1, next === -1 ? undefined : next);
  const rows: string[][] = [];
  for (const element of inside) {
    if (element.tag === 'tr') rows.push([]);
    if (element.tag === 'td') rows.at(-1)?.push(element.text);
  }
  return rows.filter((row) => row.length > 0);
}
