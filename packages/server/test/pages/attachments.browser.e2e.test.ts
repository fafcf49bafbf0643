import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer } from '@testrun/test-utils';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A failed test's files on the run page, in a real Chromium: an image shown and opened full
// size, a Playwright trace opened in the trace viewer this server serves (playwright-core's,
// no network), and files that carry script (an uploaded .html, an .svg) that run none of it
// however they are opened (docs/design.md, "Attachments").

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveChromium = fs.existsSync(CHROMIUM);
if (!haveChromium) {
  console.warn(
    `attachments browser test skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`,
  );
}

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAFUlEQVR42mNk+M9Qz8DAwMDAyAAAD1oBA5s3uVYAAAAASUVORK5CYII=',
  'base64',
);
const HTML = Buffer.from(
  '<h1>report</h1><script>fetch("/pwned-html"); top.document.title = "pwned"; document.cookie = "stolen=1"</script><img src=x onerror="fetch(\'/pwned-img\')">',
);
const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" onload="fetch(\'/pwned-svg-onload\')"><script>fetch("/pwned-svg")</script><rect width="10" height="10"/></svg>',
);

/** What the test does with a page's document, typed here. */
interface DocumentLike {
  createElement(name: string): { src?: string; data?: string };
  body: { append(...nodes: unknown[]): void };
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

describe.skipIf(!haveChromium)('a failed test’s files in a real browser', () => {
  let browser: Browser;
  let started: TestServer;
  let runId: string;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'testrun-attachments-browser-'));
  const tracePath = path.join(tmp, 'trace.zip');

  async function api(method: string, url: string, body?: Buffer | object) {
    const bytes = Buffer.isBuffer(body);
    const response = await fetch(`${started.url}${url}`, {
      method,
      headers: {
        authorization: `Bearer ${started.apiKey}`,
        'content-type': bytes ? 'application/octet-stream' : 'application/json',
      },
      body: body === undefined ? undefined : bytes ? body : JSON.stringify(body),
    });
    return response.json() as Promise<{ id: string }>;
  }

  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
    // A real trace, as Playwright Test records one: a page set up, a click.
    const recording = await browser.newContext();
    await recording.tracing.start({ screenshots: true, snapshots: true });
    const page = await recording.newPage();
    await page.setContent('<button onclick="this.textContent = \'Paid\'">Pay</button>');
    await page.getByRole('button').click();
    await recording.tracing.stop({ path: tracePath });
    await recording.close();

    started = await startTestServer();
    ({ id: runId } = await api('POST', '/api/v1/runs', { project: 'shop', framework: 'playwright' }));
    const trace = fs.readFileSync(tracePath);
    const files = [
      { bytes: PNG, name: 'screenshot', contentType: 'image/png' },
      { bytes: trace, name: 'trace', contentType: 'application/zip' },
      { bytes: HTML, name: 'report.html', contentType: 'text/html' },
      { bytes: SVG, name: 'chart.svg', contentType: 'image/svg+xml' },
    ];
    for (const file of files)
      await api('PUT', `/api/v1/runs/${runId}/attachments/${sha256(file.bytes)}`, file.bytes);
    await api('POST', `/api/v1/runs/${runId}/results`, {
      results: [
        {
          testSuite: 'checkout.test.js',
          testCase: 'checkout > pays',
          status: 'failed',
          duration: 10,
          attachments: files.map(({ bytes, name, contentType }) => ({
            name,
            contentType,
            size: bytes.length,
            sha256: sha256(bytes),
          })),
        },
      ],
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await started?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  /** What the console said of Content-Security-Policy, and every request to a `/pwned…` path the server saw. */
  function watch(page: Page) {
    const said: string[] = [];
    page.on('console', (message) => said.push(message.text()));
    page.on('pageerror', (error) => said.push(error.message));
    return {
      violations: () => said.filter((text) => /Content Security Policy/i.test(text)),
      said,
    };
  }
  const pwned = () => started.server.requests.filter((request) => request.path.startsWith('/pwned'));

  it('shows the screenshot under the failed test, and opens it full size', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const console = watch(page);
    await page.goto(`${started.url}/runs/${runId}`);
    const image = page.getByRole('img', { name: 'screenshot' });
    await image.waitFor();
    expect(
      await image.evaluate(
        (element: { complete: boolean; naturalWidth: number }) => element.complete && element.naturalWidth,
      ),
    ).toBe(2);
    const [full] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('link', { name: 'full size' }).first().click(),
    ]);
    await full.waitForLoadState();
    const shown = await full
      .locator('img')
      .evaluate((element: { naturalWidth: number }) => element.naturalWidth);
    expect(shown).toBe(2);
    expect(console.violations()).toEqual([]);
    await context.close();
  });

  it('opens the trace in the trace viewer this server serves, with no network beyond it', async () => {
    const context = await browser.newContext();
    const elsewhere: string[] = [];
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(started.url) || url.startsWith('blob:') || url.startsWith('data:'))
        return route.continue();
      elsewhere.push(url);
      return route.abort();
    });
    const page = await context.newPage();
    await page.goto(`${started.url}/runs/${runId}`);
    const [viewer] = await Promise.all([context.waitForEvent('page'), page.locator('a.open-trace').click()]);
    const console = watch(viewer);
    expect(new URL(viewer.url()).pathname).toBe('/trace-viewer/index.html');
    // The viewer lists the trace's actions once its service worker has read the trace.
    await viewer.getByText('Click', { exact: false }).first().waitFor({ timeout: 60_000 });
    expect(await viewer.getByText("getByRole('button')").count()).toBeGreaterThan(0);
    expect(elsewhere).toEqual([]);
    expect(console.said.filter((text) => /Failed to load|Content Security Policy|Error/i.test(text))).toEqual(
      [],
    );
    await context.close();
  });

  it('runs none of the script an uploaded .html or .svg carries, opened, framed or embedded', async () => {
    const context = await browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    await page.goto(`${started.url}/runs/${runId}`);
    const title = await page.title();
    const links = await page
      .locator('#failed-tests p.file.other a')
      .evaluateAll((anchors) => anchors.map((anchor) => (anchor as unknown as { href: string }).href));
    expect(links).toHaveLength(1);
    const svgUrl = links[0]!
      .replace(sha256(HTML), sha256(SVG))
      .replace('report.html', 'chart.svg')
      .replace('text%2Fhtml', 'image%2Fsvg%2Bxml');
    for (const url of [links[0]!, svgUrl]) {
      // Opened: the browser saves it (Content-Disposition: attachment) and renders nothing.
      const opened = await context.newPage();
      const download = opened.waitForEvent('download');
      await opened.goto(url).catch(() => {});
      expect((await download).suggestedFilename()).toMatch(/^(report\.html|chart\.svg)$/);
      await opened.close();
      // Framed in the run page, and embedded as an image and an object: refused, or inert.
      await page.evaluate((src) => {
        // The page's own document, in the browser (the suite's TypeScript has no DOM types).
        const document = (globalThis as unknown as { document: DocumentLike }).document;
        const frame = document.createElement('iframe');
        frame.src = src;
        const image = document.createElement('img');
        image.src = src;
        const object = document.createElement('object');
        object.data = src;
        document.body.append(frame, image, object);
      }, url);
    }
    await page.waitForTimeout(1500);
    expect(pwned()).toEqual([]);
    expect(await page.title()).toBe(title);
    expect(await context.cookies()).toEqual([]);
    await context.close();
  });
});
