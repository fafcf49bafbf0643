import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { StoredResult } from '@testrun/server';
import { reporterEnv, runJest, runVitest, startTestServer, type TestServer } from '@testrun/test-utils';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDuration } from '../../src/pages/format.js';

/** axe-core's source, evaluated in the page: the pages' CSP allows no script tag, and needs none for this. */
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

// Debian's chromium, installed by .ci/run; playwright-core never downloads a browser.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveChromium = fs.existsSync(CHROMIUM);
if (!haveChromium) {
  console.warn(
    `server pages browser test skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`,
  );
}

const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const examplesDir = path.join(repoRoot, 'examples');
const hostileFixture = path.join(import.meta.dirname, '../fixtures/hostile-names');
/** Screenshots of every page, for people to look at (gitignored). */
const screenshotDir = path.join(repoRoot, 'test-results', 'server-pages');

const FLIPPING = 'Cart > keeps the cart when the page reloads';
const STABLE = 'Cart > starts empty';
const HOSTILE_PROJECT = `<script>window.hostile = 'project'</script>`;
const HOSTILE_TAG = `"onmouseover="window.hostile = 'tag'" x="`;

describe.skipIf(!haveChromium)('the pages in a real browser, after real reporter runs', () => {
  let started: TestServer;
  let browser: Browser;
  const store = () => started.server.store;
  const runsOf = async (project: string) => (await store().runs()).filter((run) => run.project === project);

  beforeAll(async () => {
    started = await startTestServer();
    const env = (extra: Record<string, string> = {}) =>
      reporterEnv(started, { TESTRUN_TAGS: 'demo', ...extra });
    // The demo's two rounds of the Vitest example (the second fails one test on purpose),
    // a Jest run in between, and a run whose names would be script if pasted into HTML.
    const codes = [
      // The Vitest runs complete their runs (the default); the Jest run is told not to, and stays running.
      (await runVitest({ cwd: path.join(examplesDir, 'vitest'), env: env() })).code,
      (await runJest({ cwd: path.join(examplesDir, 'jest'), env: env({ TESTRUN_COMPLETE_RUN: '0' }) })).code,
      (await runVitest({ cwd: path.join(examplesDir, 'vitest'), env: env({ EXAMPLE_FLAKY_FAIL: '1' }) }))
        .code,
      (
        await runVitest({
          cwd: hostileFixture,
          env: env({ TESTRUN_PROJECT: HOSTILE_PROJECT, TESTRUN_TAGS: HOSTILE_TAG }),
        })
      ).code,
    ];
    expect(codes).toEqual([0, 0, 1, 1]);
    fs.mkdirSync(screenshotDir, { recursive: true });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await started?.close();
  });

  async function openPage(pathAndQuery: string, options: { javaScript?: boolean; width?: number } = {}) {
    const page = await browser.newPage({
      javaScriptEnabled: options.javaScript ?? false,
      viewport: { width: options.width ?? 1100, height: 900 },
    });
    await page.goto(`${started.url}${pathAndQuery}`);
    return page;
  }

  /** A state badge's word, without the explanation it shows when hovered. */
  function stateWord(badge: Locator): Promise<string> {
    return badge.evaluate((element) => element.firstChild?.textContent?.trim() ?? '');
  }

  async function follow(page: Page, link: Locator, url: RegExp) {
    await Promise.all([page.waitForURL(url), link.click()]);
  }

  function countsOf(results: readonly StoredResult[]): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const result of results) counts[result.status] = (counts[result.status] ?? 0) + 1;
    return counts;
  }

  /** Each segment of the bar is as wide as its count's share of the whole bar. */
  async function expectBarMatches(bar: Locator, counts: Record<string, number>) {
    const total = Object.values(counts).reduce((sum, count) => sum + count, 0);
    const barBox = await bar.boundingBox();
    expect(barBox).not.toBeNull();
    const segments = bar.locator('rect');
    const shown: Record<string, number> = {};
    for (let i = 0; i < (await segments.count()); i++) {
      const segment = segments.nth(i);
      const status = (await segment.getAttribute('data-status')) ?? '';
      const box = await segment.boundingBox();
      shown[status] = Number(await segment.getAttribute('data-count'));
      expect(Math.abs((box?.width ?? 0) - (barBox!.width * (counts[status] ?? 0)) / total)).toBeLessThan(1.5);
    }
    expect(shown).toEqual(Object.fromEntries(Object.entries(counts).filter(([, count]) => count > 0)));
  }

  it('lists the runs newest first, each with a bar in proportion to its counts, its wall clock and tests’ sum, and a failed run marked', async () => {
    const page = await openPage('/');
    const runs = (await store().runs()).reverse();
    const items = page.locator('li.run');
    expect(await items.evaluateAll((lis) => lis.map((li) => li.getAttribute('data-run-id')))).toEqual(
      runs.map((run) => run.id),
    );
    for (const [index, run] of runs.entries()) {
      const item = items.nth(index);
      const results = await store().results(run.id);
      await expectBarMatches(item.locator('svg.bar'), countsOf(results));
      expect(await item.locator('.count.passed').textContent()).toBe(
        `${results.filter((r) => r.status === 'passed').length} passed`,
      );
      const testsSum = results.reduce((sum, r) => sum + r.duration, 0);
      expect(await item.locator('.tests-duration').textContent()).toBe(formatDuration(testsSum));
      // A run its reporter completed shows its wall clock from creation to end; the Jest run, never
      // completed, its wall clock to the last results received.
      const end = await store().endOf(run.id);
      const duration = item.locator('.duration');
      if (end) {
        expect(await duration.getAttribute('data-kind')).toBe('wall');
        const wall = Date.parse(end.endedAt) - Date.parse(run.createdAt);
        expect(await duration.textContent()).toBe(formatDuration(wall));
      } else {
        expect(await duration.getAttribute('data-kind')).toBe('wall-to-last-results');
      }
      const failed = results.filter((r) => r.status === 'failed').length;
      if (failed > 0) {
        expect(await item.locator('.failures').textContent()).toBe(
          `✗ ${failed} failed ${failed === 1 ? 'test' : 'tests'}`,
        );
        expect(
          await item.evaluate((li) => li.ownerDocument.defaultView!.getComputedStyle(li).borderLeftWidth),
        ).toBe('6px');
      } else {
        expect(await item.locator('.failures').count()).toBe(0);
      }
      expect(await item.locator('time').textContent()).toMatch(/ago|just now/);
    }
    await page.screenshot({ path: path.join(screenshotDir, 'runs.png'), fullPage: true });
    await page.close();
  });

  it("shows each run's state in words: completed, failed, or running while nobody completed it", async () => {
    const page = await openPage('/');
    const cards = page.locator('li.run');
    const shown: Record<string, string> = {};
    for (const card of await cards.all()) {
      shown[(await card.getAttribute('data-run-id'))!] = await stateWord(card.locator('.state'));
    }
    const [passing, jest, failing] = await store().runs();
    expect(shown[passing!.id]).toBe('completed');
    expect(shown[jest!.id]).toBe('running');
    expect(shown[failing!.id]).toBe('failed');
    // The badge explains itself where it is hovered (or focused, as a tap does), without script.
    const badge = page.locator(`li.run[data-run-id="${jest!.id}"] .state`);
    expect(await badge.locator('.tip').isVisible()).toBe(false);
    await badge.hover();
    expect(await badge.locator('.tip').textContent()).toMatch(/^Running: receiving results/);
    await page.goto(`${started.url}/runs/${failing!.id}`);
    await expect.poll(() => stateWord(page.locator('h1 .state'))).toBe('failed');
    await page.locator('h1 .state').focus();
    expect(await page.locator('h1 .state .tip').isVisible()).toBe(true);
    expect(await page.locator('#run-state').textContent()).toMatch(/^Ended failed /);
    await page.close();
  });

  it('narrows the runs list with the project and tag filters, without script', async () => {
    const page = await openPage('/');
    await page.selectOption('select[name=project]', 'example-vitest');
    await follow(page, page.getByRole('button', { name: 'Filter' }), /project=example-vitest/);
    const shown = () =>
      page.locator('li.run').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-run-id')));
    expect(await shown()).toEqual((await runsOf('example-vitest')).reverse().map((run) => run.id));

    await page.selectOption('select[name=project]', '');
    await page.selectOption('select[name=tag]', HOSTILE_TAG);
    await follow(page, page.getByRole('button', { name: 'Filter' }), /tag=/);
    expect(await shown()).toEqual((await runsOf(HOSTILE_PROJECT)).map((run) => run.id));
    await page.close();
  });

  it('shows a run with its failed tests first, suites with counts, and a search that narrows the tests', async () => {
    const page = await openPage('/?project=example-vitest');
    const [, failingRun] = await runsOf('example-vitest');
    const results = await store().results(failingRun!.id);
    await follow(page, page.locator(`li[data-run-id="${failingRun!.id}"] a.name`), /\/runs\//);

    await expectBarMatches(page.locator('main > svg.bar'), countsOf(results));
    const failedNames = results.filter((r) => r.status === 'failed').map((r) => r.testCase);
    expect(failedNames).toEqual([FLIPPING]);
    expect(await page.locator('#failed-tests a.test-link').allInnerTexts()).toEqual(failedNames);
    const firstSuite = page.locator('details.suite').first();
    expect(await firstSuite.getAttribute('open')).not.toBeNull();
    expect(await firstSuite.locator('tr.test').first().locator('a').textContent()).toBe(FLIPPING);
    for (const duration of await page.locator('td.num').allTextContents()) {
      expect(duration).toMatch(/^\d+(\.\d)? (ms|s)$|^\d+ min \d+ s$/);
    }
    await page.screenshot({ path: path.join(screenshotDir, 'run.png'), fullPage: true });

    await page.fill('input[name=q]', 'SLUGIFY');
    await follow(page, page.getByRole('button', { name: 'Search' }), /q=SLUGIFY/);
    const matching = results.filter((r) => `${r.testSuite} ${r.testCase}`.toLowerCase().includes('slugify'));
    expect(matching.length).toBeGreaterThan(0);
    expect(matching.length).toBeLessThan(results.length);
    const shown = await page.locator('#suites ~ details.suite tr.test a').allTextContents();
    expect(shown.sort()).toEqual(matching.map((r) => r.testCase).sort());
    for (const row of await page.locator('#suites ~ details.suite').all())
      expect(await row.isVisible()).toBe(true);
    await page.close();
  });

  it('shows what Vitest annotated on the failing test under it, folded, the passing run’s left home', async () => {
    const [passingRun, failingRun] = await runsOf('example-vitest');
    const flipping = (await store().results(failingRun!.id)).find((r) => r.testCase === FLIPPING);
    const note = JSON.stringify({ itemCount: 0, total: 0 });
    expect(flipping?.attachments).toEqual([
      {
        name: 'the cart after the reload',
        contentType: 'application/json',
        size: note.length,
        sha256: createHash('sha256').update(note).digest('hex'),
      },
    ]);
    const passed = (await store().results(passingRun!.id)).find((r) => r.testCase === FLIPPING);
    expect(passed?.attachments).toBeUndefined();
    const page = await openPage(`/runs/${failingRun!.id}`);
    const log = page.locator('#failed-tests details.file.log');
    expect(await log.locator('summary').textContent()).toBe(`the cart after the reload · ${note.length} B`);
    await log.locator('summary').click();
    expect(await log.locator('pre').textContent()).toBe(note);
    await page.close();
  });

  it("shows a test's history: the outcome in each of its project's runs that held it", async () => {
    const [passingRun, failingRun] = await runsOf('example-vitest');
    const page = await openPage(`/runs/${failingRun!.id}`);
    await follow(page, page.locator('#failed-tests a.test-link', { hasText: FLIPPING }), /\/test\?/);

    expect(await page.locator('h1').textContent()).toBe(FLIPPING);
    const rows = await page
      .locator('tr.outcome')
      .evaluateAll((trs) =>
        trs.map((tr) => [tr.getAttribute('data-run-id'), tr.getAttribute('data-status')]),
      );
    expect(rows).toEqual([
      [failingRun!.id, 'failed'],
      [passingRun!.id, 'passed'],
    ]);
    const cells = await page
      .locator('svg.strip rect')
      .evaluateAll((rects) => rects.map((r) => r.getAttribute('data-status')));
    expect(cells).toEqual(['passed', 'failed']);
    // Not by colour alone: each cell carries its mark, each status word its own.
    expect(await page.locator('svg.strip text').allTextContents()).toEqual(['✓', '✗']);
    const marks = await page
      .locator('td.status')
      .evaluateAll((tds) =>
        tds.map((td) => td.ownerDocument.defaultView!.getComputedStyle(td, '::before').content),
      );
    expect(marks).toEqual(['"✗ " / ""', '"✓ " / ""']);
    expect(await page.locator('svg.spark circle').count()).toBe(2);
    await page.screenshot({ path: path.join(screenshotDir, 'test.png'), fullPage: true });
    await page.close();
  });

  it('lists the flipping test as flaky and not a stable one, with the rule on the page', async () => {
    const page = await openPage('/');
    await follow(page, page.getByRole('link', { name: 'Flaky tests' }), /\/flaky/);

    expect(await page.locator('#flaky-rule').textContent()).toContain("within its project's last 20 runs");
    const vitest = page.locator('section[data-project="example-vitest"]');
    expect(await vitest.locator('li.flaky a.test-link').allInnerTexts()).toEqual([FLIPPING]);
    expect(await page.locator('a.test-link', { hasText: STABLE }).count()).toBe(0);
    // Said once, folded: the page opens with what it found, and a calm project is one line.
    expect(await page.locator('#flaky-rule').getAttribute('open')).toBeNull();
    expect(await page.locator('section[data-project="example-jest"]').count()).toBe(0);
    expect(await page.locator('#nothing-flaky a[data-project="example-jest"]').count()).toBe(1);
    await page.screenshot({ path: path.join(screenshotDir, 'flaky.png'), fullPage: true });
    await page.close();
  });

  it('shows hostile names as text on every page, with script enabled', async () => {
    const [hostileRun] = await runsOf(HOSTILE_PROJECT);
    const hostileTest = (await store().results(hostileRun!.id)).find((r) =>
      r.testCase.includes('onmouseover'),
    );
    const page = await openPage('/', { javaScript: true });
    const visits = [
      '/',
      `/runs/${hostileRun!.id}`,
      `/runs/${hostileRun!.id}?q=${encodeURIComponent('<script>')}`,
      `/test?${new URLSearchParams({ project: HOSTILE_PROJECT, suite: hostileTest!.testSuite, test: hostileTest!.testCase })}`,
      '/flaky',
    ];
    for (const visit of visits) {
      await page.goto(`${started.url}${visit}`);
      const hostile = () => page.evaluate(() => (globalThis as { hostile?: string }).hostile);
      expect(await hostile(), visit).toBeUndefined();
      expect(await page.locator('[onmouseover], [onerror], [onload]').count(), visit).toBe(0);
      const named = page.getByText(HOSTILE_PROJECT).filter({ visible: true });
      expect(await named.count(), visit).toBeGreaterThan(0);
      await named.first().hover();
      expect(await hostile(), visit).toBeUndefined();
    }
    await page.goto(`${started.url}/runs/${hostileRun!.id}`);
    expect(await page.getByText(HOSTILE_TAG).count()).toBeGreaterThan(0);
    const testNames = await page.locator('details.suite a.test-link').allTextContents();
    expect(testNames.sort()).toEqual((await store().results(hostileRun!.id)).map((r) => r.testCase).sort());
    await page.close();
  });

  /** Chromium's console lines that report a Content-Security-Policy violation on the page. */
  function cspViolations(page: Page): string[] {
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    return violations;
  }

  it('styles every page under its Content-Security-Policy, with no violation reported', async () => {
    const [, failingRun] = await runsOf('example-vitest');
    const flipping = (await store().results(failingRun!.id)).find((r) => r.testCase === FLIPPING);
    const visits = [
      '/',
      '/?project=example-vitest',
      `/runs/${failingRun!.id}`,
      `/runs/${failingRun!.id}?q=cart&status=failed`,
      `/test?${new URLSearchParams({ project: 'example-vitest', suite: flipping!.testSuite, test: FLIPPING })}`,
      '/test',
      '/flaky',
      '/runs/no-such-run',
    ];
    const page = await browser.newPage({ javaScriptEnabled: true });
    const violations = cspViolations(page);
    for (const visit of visits) {
      const response = await page.goto(`${started.url}${visit}`);
      expect(response?.headers()['content-security-policy'], visit).toContain("frame-ancestors 'none'");
      // The inline stylesheet applied: blocked, the header bar would have no background.
      const header = page.locator('header.top');
      expect(
        await header.evaluate((el) => el.ownerDocument.defaultView!.getComputedStyle(el).backgroundColor),
        visit,
      ).toBe('rgb(31, 31, 31)');
    }
    expect(violations).toEqual([]);
    await page.close();
  });

  it('signs in on a server whose pages ask for a key, through the form, with an HttpOnly cookie, and signs out', async () => {
    const readKey = 'browser-read-key-51d2';
    const locked = await startTestServer({ readKeys: [readKey] });
    const context = await browser.newContext({ javaScriptEnabled: true });
    const page = await context.newPage();
    const violations = cspViolations(page);

    await page.goto(`${locked.url}/flaky`);
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(await page.getByRole('heading', { name: 'Sign in' }).isVisible()).toBe(true);

    await page.getByLabel('Key').fill('not-the-key');
    await Promise.all([page.waitForLoadState(), page.getByRole('button', { name: 'Sign in' }).click()]);
    expect(await page.getByRole('alert').textContent()).toContain('not accepted');
    expect(await context.cookies()).toEqual([]);

    await page.getByLabel('Key').fill(readKey);
    await Promise.all([
      page.waitForURL(`${locked.url}/flaky`),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    expect(await page.getByRole('heading', { level: 1 }).first().textContent()).toMatch(/flaky/i);
    const cookies = await context.cookies();
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatchObject({
      name: 'testrun_session',
      httpOnly: true,
      sameSite: 'Strict',
      path: '/',
    });
    expect(cookies[0]!.value).not.toContain(readKey);
    expect(
      await page.evaluate(() => (globalThis as unknown as { document: { cookie: string } }).document.cookie),
    ).toBe('');

    await page.goto(`${locked.url}/`);
    expect(new URL(page.url()).pathname).toBe('/');

    await page.goto(`${locked.url}/logout`);
    await Promise.all([
      page.waitForURL(`${locked.url}/login`),
      page.getByRole('button', { name: 'Sign out' }).click(),
    ]);
    expect(await context.cookies()).toEqual([]);
    await page.goto(`${locked.url}/`);
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(violations).toEqual([]);
    await context.close();
  });

  it('reads at 375 px wide: no page is wider than the screen', async () => {
    const [, failingRun] = await runsOf('example-vitest');
    const flipping = (await store().results(failingRun!.id)).find((r) => r.testCase === FLIPPING);
    const pages = {
      runs: '/',
      run: `/runs/${failingRun!.id}`,
      test: `/test?${new URLSearchParams({ project: 'example-vitest', suite: flipping!.testSuite, test: FLIPPING })}`,
      flaky: '/flaky',
    };
    for (const [name, url] of Object.entries(pages)) {
      const page = await openPage(url, { width: 375 });
      expect(await page.locator('html').evaluate((html) => html.scrollWidth), name).toBeLessThanOrEqual(375);
      await page.screenshot({ path: path.join(screenshotDir, `${name}-375px.png`), fullPage: true });
      await page.close();
    }
  });

  /** axe-core's violations on the page as loaded, one line each: rule, impact, where. */
  async function axeViolations(page: Page): Promise<string[]> {
    await page.evaluate(AXE_SOURCE);
    const violations = await page.evaluate(async () => {
      const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
      const { violations } = await axe.run();
      return violations;
    });
    return violations.flatMap((violation) =>
      violation.nodes.map(
        (node) =>
          `${violation.id} (${violation.impact}): ${node.target.join(' ')} ${node.failureSummary ?? ''}`,
      ),
    );
  }

  it('passes axe-core on every page, light and dark, the empty state, the 404 and sign-in too', async () => {
    const empty = await startTestServer();
    const locked = await startTestServer({ readKeys: ['axe-read-key-7c1e'] });
    // A run whose CI tags link its commit, branch and build.
    const ci = await startTestServer();
    const ciRun = await fetch(`${ci.url}/api/v1/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ci.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        project: 'shop',
        framework: 'vitest',
        tags: [
          'ci:github',
          'branch:main',
          'commit:abc123',
          'build:77',
          'build-url:https://github.com/acme/shop/actions/runs/77',
          'repo-url:https://github.com/acme/shop',
        ],
      }),
    }).then((answer) => answer.json() as Promise<{ id: string }>);
    // A quarantined test, with the change that set it: the quarantine pages have something to show.
    const quarantined = { project: 'shop', testSuite: 'src/cart.test.ts', testCase: 'cart > rounds' };
    const set = await fetch(`${ci.url}/api/v1/quarantines`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ci.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...quarantined, reason: 'flaky since #812', owner: 'team-cart', by: 'ana' }),
    });
    expect(set.status).toBe(201);
    const [, failingRun] = await runsOf('example-vitest');
    const flipping = (await store().results(failingRun!.id)).find((r) => r.testCase === FLIPPING);
    const visits = {
      runs: `${started.url}/`,
      run: `${started.url}/runs/${failingRun!.id}`,
      'run-narrowed': `${started.url}/runs/${failingRun!.id}?q=cart&status=failed`,
      test: `${started.url}/test?${new URLSearchParams({ project: 'example-vitest', suite: flipping!.testSuite, test: FLIPPING })}`,
      flaky: `${started.url}/flaky`,
      'which-test': `${started.url}/test`,
      'run-not-found': `${started.url}/runs/no-such-run`,
      'not-found': `${started.url}/no/such/page`,
      'runs-empty': `${empty.url}/`,
      'flaky-empty': `${empty.url}/flaky`,
      'runs-ci': `${ci.url}/`,
      'run-ci': `${ci.url}/runs/${ciRun.id}`,
      quarantine: `${ci.url}/quarantine?project=shop`,
      'quarantine-projects': `${ci.url}/quarantine`,
      'quarantine-change': `${ci.url}/quarantine/change?${new URLSearchParams({ action: 'lift', project: 'shop', suite: quarantined.testSuite, test: quarantined.testCase })}`,
      'sign-in': `${locked.url}/login`,
      'sign-out': `${locked.url}/logout`,
    };
    const found: Record<string, string[]> = {};
    try {
      for (const colorScheme of ['light', 'dark'] as const) {
        const page = await browser.newPage({ javaScriptEnabled: true, colorScheme });
        const csp = cspViolations(page);
        for (const [name, visit] of Object.entries(visits)) {
          const response = await page.goto(visit);
          expect(response?.headers()['content-type'], visit).toBe('text/html; charset=utf-8');
          const background = await page
            .locator('body')
            .evaluate((body) => body.ownerDocument.defaultView!.getComputedStyle(body).backgroundColor);
          expect(background, `${colorScheme} ${name}`).toBe(
            colorScheme === 'dark' ? 'rgb(18, 18, 18)' : 'rgb(247, 247, 248)',
          );
          const violations = await axeViolations(page);
          if (violations.length > 0) found[`${colorScheme} ${name}`] = violations;
          if (colorScheme === 'dark') {
            await page.screenshot({ path: path.join(screenshotDir, `${name}-dark.png`), fullPage: true });
          }
        }
        expect(csp).toEqual([]);
        await page.close();
      }
      expect(found).toEqual({});
    } finally {
      await empty.close();
      await ci.close();
      await locked.close();
    }
  });
});

interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: { target: string[]; failureSummary?: string }[];
}
