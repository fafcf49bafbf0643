import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  npmEnv as consumerEnv,
  FIXTURES_DIR,
  type RunOutcome,
  readSpoolLines,
  reporterEnv,
  runProcess as run,
  runTestCafeCommand,
  testcafeBrowserMissing,
  untilTestCafeOpensItsBrowsers,
} from '@testrun/test-utils';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  bin,
  consumerDir,
  INSTALL_TIMEOUT_MS,
  installedConsumer,
  removeLater,
  removeScratch,
  scratchDir,
} from './consumer.js';

// A failed browser test's attachments from the packed packages: the fixtures of packages/test-utils/fixtures/attachments, copied into the
// consumer project, against `testrun serve`. WebdriverIO, which the project does not install,
// shows its screenshots in compat/webdriverio.test.ts's run, and Vitest its annotations in the
// server's pages browser test: each a run the suite makes anyway (a browser run costs seconds).

const ATTACHMENTS_FIXTURES = path.join(FIXTURES_DIR, 'attachments');
const ATTACHMENTS_KEY = 'packed-attachments-key-52';
/** Three framework runs (two in a browser) and an upload side by side, on a machine others share. */
const ATTACHMENTS_TIMEOUT_MS = 600_000;
/** The spool folders of the attachments' runs: empty afterwards, every result and file delivered. */
const attachmentSpools: string[] = [];

const browserMissing = testcafeBrowserMissing();

beforeAll(async () => {
  await installedConsumer();
}, INSTALL_TIMEOUT_MS);

afterAll(removeScratch);

// A failed browser test's files (docs/attachments.md), from Playwright, TestCafe and Cucumber
// and from the CLI's `upload` of a JUnit report, to the installed `testrun serve`: each stored
// with the failed result, byte for byte, shown on the run page, a trace opened in the viewer
// the server serves, and an uploaded .html or .svg that runs none of its script.
it.skipIf(browserMissing)(
  'attachments: a failed browser test’s files reach the installed testrun serve, byte for byte, and its page shows them safely',
  async () => {
    const served = await startInstalledServe();
    try {
      const runs = await attachmentRuns(served.url);
      await checkAttachments(served, runs);
    } finally {
      await served.stop();
    }
  },
  ATTACHMENTS_TIMEOUT_MS,
);

interface InstalledServe {
  url: string;
  data: string;
  stop(): Promise<void>;
}

/** The installed `testrun serve` on a data folder of its own, once it says where it listens. */
async function startInstalledServe(): Promise<InstalledServe> {
  const data = scratchDir('serve');
  const child: ChildProcess = spawn(bin('testrun'), ['serve', '--data', data, '--api-key', ATTACHMENTS_KEY], {
    env: consumerEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(
          new Error(`testrun serve did not start:
${output}`),
        ),
      60_000,
    );
    const read = (chunk: Buffer) => {
      output += chunk;
      const listening = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (listening) {
        clearTimeout(timer);
        resolve(listening);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', () =>
      reject(
        new Error(`testrun serve exited:
${output}`),
      ),
    );
  });
  return {
    url,
    data,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** What each runner's run left on disk that its failed test attached, to compare with what the service stores. */
interface AttachmentRun {
  framework: string;
  outcome: RunOutcome;
  /** The framework's exit code for a run with a failed test. */
  code: number;
  /** The failed result's testCase. */
  failed: string;
  /** Attachment name → the bytes the runner wrote (or attached). */
  files: Record<string, Buffer>;
}

async function attachmentRuns(url: string): Promise<AttachmentRun[]> {
  const dir = path.join(consumerDir(), 'attachments');
  fs.cpSync(ATTACHMENTS_FIXTURES, dir, { recursive: true });
  const files = scratchDir('files');
  const env = (extra: Record<string, string> = {}) => {
    const reporter = reporterEnv(
      { url, apiKey: ATTACHMENTS_KEY },
      { CHROMIUM_PATH: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', ...extra },
    );
    removeLater(reporter.TESTRUN_SPOOL_DIR!);
    attachmentSpools.push(reporter.TESTRUN_SPOOL_DIR!);
    return consumerEnv(reporter);
  };
  const playwrightOutput = path.join(files, 'playwright');
  const testcafeShots = path.join(files, 'testcafe');
  const [playwright, testcafe, cucumber, upload] = await Promise.all([
    run(
      process.execPath,
      [path.join(dir, '../node_modules/@playwright/test/cli.js'), 'test', '--output', playwrightOutput],
      {
        cwd: path.join(dir, 'playwright'),
        env: env(),
      },
    ),
    untilTestCafeOpensItsBrowsers(async () => ({
      outcome: await runTestCafeCommand(
        bin('testcafe'),
        [
          'chromium:headless --no-sandbox',
          'tests/',
          '-r',
          'spec,testrun',
          '-s',
          `takeOnFails=true,path=${testcafeShots}`,
        ],
        { cwd: path.join(dir, 'testcafe'), env: env() },
      ),
    })).then(({ outcome }) => outcome),
    run(bin('cucumber-js'), [], { cwd: path.join(dir, 'cucumber'), env: env() }),
    run(bin('testrun'), ['upload', 'report.xml'], { cwd: path.join(dir, 'junit'), env: env() }),
  ]);
  const found = (root: string, pattern: RegExp) => {
    const match = (fs.readdirSync(root, { recursive: true }) as string[]).find((name) => pattern.test(name));
    if (!match) throw new Error(`no file matching ${pattern} in ${root}`);
    return fs.readFileSync(path.join(root, match));
  };
  const pixel = fs.readFileSync(path.join(dir, 'junit', 'screenshots', 'pays.png'));
  return [
    {
      framework: 'playwright',
      outcome: playwright,
      code: 1,
      failed: 'checkout > pays',
      files: {
        screenshot: found(playwrightOutput, /test-failed-1\.png$/),
        trace: found(playwrightOutput, /trace\.zip$/),
        '../../cart.json': Buffer.from(JSON.stringify({ items: 2 })),
      },
    },
    {
      framework: 'testcafe',
      outcome: testcafe,
      code: 1,
      failed: 'checkout > pays',
      files: { screenshot: found(testcafeShots, /\.png$/) },
    },

    {
      framework: 'cucumber',
      outcome: cucumber,
      code: 1,
      failed: 'checkout > pays by card',
      files: {
        'note.txt': Buffer.from('paid for 2 items'),
        'checkout.png': fs.readFileSync(path.join(dir, 'cucumber', 'pixel.png')),
      },
    },

    {
      framework: 'junit',
      outcome: upload,
      code: 0,
      failed: 'checkout > pays',
      files: {
        'pays.png': pixel,
        // A test's own report and chart, with script in them: stored as they are, never run.
        'report.html': fs.readFileSync(path.join(dir, 'junit', 'pages', 'report.html')),
        'chart.svg': fs.readFileSync(path.join(dir, 'junit', 'pages', 'chart.svg')),
      },
    },
  ];
}

/** What the test does with a page's document, typed here: the suite's TypeScript has no DOM types. */
interface EmbeddingDocument {
  createElement(name: string): { src?: string; data?: string };
  body: { append(...nodes: unknown[]): void };
}

interface ListedFile {
  name: string;
  contentType: string;
  sha256: string;
  url: string;
  received: boolean;
}

async function checkAttachments(served: InstalledServe, runs: AttachmentRun[]): Promise<void> {
  const api = async (route: string) => {
    const response = await fetch(`${served.url}${route}`, {
      headers: { authorization: `Bearer ${ATTACHMENTS_KEY}` },
    });
    return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
  };
  const stored = JSON.parse((await api('/api/v1/runs')).bytes.toString()) as {
    id: string;
    framework: string;
    total: number;
  }[];
  const runOf: Record<string, string> = {};
  for (const expected of runs) {
    const output = expected.outcome.stdout + expected.outcome.stderr;
    expect(expected.outcome.code, `${expected.framework}: its own exit code\n${output}`).toBe(expected.code);
    const candidates = stored.filter((runOf) => runOf.framework === expected.framework && runOf.total > 0);
    expect(candidates, `${expected.framework}: one run\n${output}`).toHaveLength(1);
    const runId = candidates[0]!.id;
    runOf[expected.framework] = runId;
    const results = JSON.parse((await api(`/api/v1/runs/${runId}/results`)).bytes.toString()) as {
      testCase: string;
      status: string;
      attachments?: ListedFile[];
    }[];
    const failed = results.find((result) => result.testCase === expected.failed);
    expect(failed?.status, `${expected.framework}\n${output}`).toBe('failed');
    // The passing tests' files stay home (attachments: 'failed', the default).
    expect(
      results.filter((result) => result !== failed && result.attachments),
      expected.framework,
    ).toEqual([]);
    const byName = Object.fromEntries((failed?.attachments ?? []).map((file) => [file.name, file]));
    for (const [name, bytes] of Object.entries(expected.files)) {
      const file = byName[name];
      expect(
        file,
        `${expected.framework}: ${name} among ${Object.keys(byName).join(', ')}\n${output}`,
      ).toBeDefined();
      expect(file!.received, `${expected.framework}: ${name}`).toBe(true);
      const downloaded = await api(file!.url);
      expect(downloaded.status).toBe(200);
      expect(downloaded.bytes.equals(bytes), `${expected.framework}: ${name} byte for byte`).toBe(true);
    }
    expect(output).toMatch(/testrun: .*files? uploaded/);
  }
  for (const spool of attachmentSpools) expect(readSpoolLines(spool), spool).toEqual([]);
  // The files are in the data folder by their hashes, and nowhere else: a name like ../../cart.json reaches no path.
  const kept = (
    fs.readdirSync(path.join(served.data, 'attachments'), { recursive: true }) as string[]
  ).filter((name) => fs.statSync(path.join(served.data, 'attachments', name)).isFile());
  expect(
    kept.every((name) => /^[0-9a-f]{2}\/[0-9a-f]{64}$/.test(name)),
    kept.join(', '),
  ).toBe(true);
  expect(fs.existsSync(path.join(served.data, '..', 'cart.json'))).toBe(false);

  // The run page in Chromium: the failed test's screenshot shown, its trace opened in the
  // viewer the server serves, nothing fetched from anywhere else; and the script of an
  // uploaded .html and .svg run nowhere, however they are opened.
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const context = await browser.newContext();
    const elsewhere: string[] = [];
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(served.url) || /^(blob|data):/.test(url)) return route.continue();
      elsewhere.push(url);
      return route.abort();
    });
    const pwned: string[] = [];
    context.on('request', (request) => {
      if (request.url().includes('/pwned')) pwned.push(request.url());
    });
    const page = await context.newPage();
    await page.goto(`${served.url}/runs/${runOf.playwright}`);
    const screenshot = page.getByRole('img', { name: 'screenshot' });
    await screenshot.waitFor();
    expect(
      await screenshot.evaluate(
        (image: { complete: boolean; naturalWidth: number }) => image.complete && image.naturalWidth > 0,
      ),
    ).toBe(true);
    const [viewer] = await Promise.all([context.waitForEvent('page'), page.locator('a.open-trace').click()]);
    await viewer.getByText('Set content').first().waitFor({ timeout: 120_000 });
    expect(await viewer.getByText("getByRole('button')").count()).toBeGreaterThan(0);
    expect(elsewhere).toEqual([]);

    await page.goto(`${served.url}/runs/${runOf.junit}`);
    const title = await page.title();
    const html = await page.getByRole('link', { name: 'download' }).first().getAttribute('href');
    const svg = await page.getByRole('img', { name: 'chart.svg' }).getAttribute('src');
    expect([html, svg]).toEqual([
      expect.stringContaining('/report.html?'),
      expect.stringContaining('/chart.svg?'),
    ]);
    for (const url of [html!, svg!]) {
      // Opened: saved (Content-Disposition: attachment), never rendered.
      const opened = await context.newPage();
      const download = opened.waitForEvent('download');
      await opened.goto(`${served.url}${url}`).catch(() => {});
      expect((await download).suggestedFilename()).toMatch(/^(report\.html|chart\.svg)$/);
      await opened.close();
      // Framed in the run page, and embedded as an image and an object: refused, or inert.
      await page.evaluate((src) => {
        const document = (globalThis as unknown as { document: EmbeddingDocument }).document;
        const frame = document.createElement('iframe');
        frame.src = src;
        const image = document.createElement('img');
        image.src = src;
        const object = document.createElement('object');
        object.data = src;
        document.body.append(frame, image, object);
      }, url);
    }
    await page.waitForTimeout(1000);
    expect(pwned).toEqual([]);
    expect(await page.title()).toBe(title);
  } finally {
    await browser.close();
  }
}
