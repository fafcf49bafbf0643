import fs from 'node:fs';
import path from 'node:path';
import { reporterEnv, runJest, runVitest, startTestServer, type TestServer } from '@testrun/test-utils';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Debian's chromium, installed by .ci/run; playwright-core never downloads a browser.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveChromium = fs.existsSync(CHROMIUM);
if (!haveChromium) {
  console.warn(
    `runs page browser test skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`,
  );
}

const examplesDir = path.resolve(import.meta.dirname, '../../../examples');

describe.skipIf(!haveChromium)('the runs page in a real browser, after a demo run', () => {
  let started: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    started = await startTestServer();
    const vitest = await runVitest({
      cwd: path.join(examplesDir, 'vitest'),
      env: reporterEnv(started, { TESTRUN_TAGS: 'demo' }),
    });
    const jest = await runJest({
      cwd: path.join(examplesDir, 'jest'),
      env: reporterEnv(started, { TESTRUN_TAGS: 'demo' }),
    });
    expect([vitest.code, jest.code]).toEqual([0, 0]);
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
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await started?.close();
  });

  it('lists the runs newest first with project, framework, tags, counts and duration', async () => {
    const page = await browser.newPage({ javaScriptEnabled: false });
    await page.goto(`${started.url}/`);
    const runs = started.server.store.runs();
    const rows = page.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    const [newest, oldest] = [runs[1]!, runs[0]!];
    expect(newest.framework).toBe('jest');

    const firstRow = await rows.nth(0).textContent();
    expect(firstRow).toContain('example-jest');
    expect(firstRow).toContain('jest');
    expect(firstRow).toContain('demo');
    const secondRow = await rows.nth(1).textContent();
    expect(secondRow).toContain('example-vitest');
    expect(secondRow).toContain('vitest');

    const headers = await page.locator('thead th').allInnerTexts();
    for (const run of [newest, oldest]) {
      const row = rows.nth(run === newest ? 0 : 1);
      const cells = await row.locator('td').allInnerTexts();
      const results = started.server.store.results(run.id);
      const count = (status: string) => String(results.filter((r) => r.status === status).length);
      expect(cells[headers.indexOf('passed')]).toBe(count('passed'));
      expect(cells[headers.indexOf('skipped')]).toBe(count('skipped'));
      expect(cells[headers.indexOf('Total')]).toBe(String(results.length));
      const duration = results.reduce((sum, r) => sum + r.duration, 0);
      expect(Number.parseFloat(cells[headers.indexOf('Duration')] ?? '')).toBeCloseTo(duration, 0);
    }
    await page.close();
  });

  it("shows a run's results and filters them by status", async () => {
    const page = await browser.newPage({ javaScriptEnabled: false });
    await page.goto(`${started.url}/`);
    await page.getByRole('link', { name: 'example-vitest' }).click();
    const vitestRun = started.server.store.runs()[0]!;
    const results = started.server.store.results(vitestRun.id);
    await expect.poll(() => page.locator('tbody tr').count()).toBe(results.length);
    expect(await page.locator('h1').textContent()).toContain('example-vitest');

    await page.getByRole('link', { name: /^skipped \(/ }).click();
    const skipped = results.filter((r) => r.status === 'skipped');
    expect(skipped.length).toBeGreaterThan(0);
    const shown = await page.locator('tbody tr td:nth-child(2)').allInnerTexts();
    expect(shown.sort()).toEqual(skipped.map((r) => r.testCase).sort());
    await page.close();
  });
});
