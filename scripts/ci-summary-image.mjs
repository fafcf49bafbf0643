// `node scripts/ci-summary-image.mjs` (after `pnpm build`): docs/images/ci-summary.png, the
// picture of a CI summary in the README and docs/ci.md. The summary is core's own rendering
// (dist/summary/index.js) of a made-up run, turned into HTML as GitHub renders Markdown
// (micromark with GitHub's extensions), styled with github-markdown-css inside a frame like a
// job summary's, and taken by Debian's Chromium.
import fs from 'node:fs';
import { chromium } from '@playwright/test';
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { RunTally, renderSummary } from '../packages/core/dist/summary/index.js';

const statusWords = { passed: 'passed', failed: 'failed', skipped: 'skipped', todo: 'skipped' };
const tally = new RunTally(statusWords);
const suites = ['src/cart.test.ts', 'src/checkout.test.ts', 'src/search.test.ts', 'src/account.test.ts'];
for (let index = 0; index < 1204; index++) {
  tally.add({
    testSuite: suites[index % suites.length],
    testCase: `case ${index}`,
    status: 'passed',
    duration: 5 + ((index * 37) % 90),
  });
}
for (const [testSuite, testCase, attempts, duration] of [
  ['src/search.test.ts', 'search > suggests as you type', 2, 640],
  ['src/account.test.ts', 'account > signs in with a passkey', 3, 1210],
  ['src/cart.test.ts', 'cart > keeps the basket across tabs', 2, 410],
]) {
  tally.add({ testSuite, testCase, status: 'passed', duration, details: { attempts } });
}
tally.add({
  testSuite: 'src/checkout.test.ts',
  testCase: 'checkout > applies a discount code',
  status: 'failed',
  duration: 88,
  details: { message: 'expected 90 to be 81 // Object.is equality\n\n- Expected\n+ Received' },
});
tally.add({
  testSuite: 'src/cart.test.ts',
  testCase: 'cart > rejects a negative quantity',
  status: 'failed',
  duration: 12,
  details: { message: 'AssertionError: expected [Function] to throw an error' },
});
tally.add({
  testSuite: 'e2e/payment.spec.ts',
  testCase: 'payment > charges the card once',
  status: 'passed',
  duration: 8_450,
});
tally.add({
  testSuite: 'e2e/payment.spec.ts',
  testCase: 'payment > refunds',
  status: 'passed',
  duration: 6_120,
});
for (let index = 0; index < 12; index++) {
  tally.add({ testSuite: 'src/legacy.test.ts', testCase: `legacy ${index}`, status: 'skipped', duration: 0 });
}

const markdown = renderSummary({
  project: 'shop-web',
  framework: 'vitest',
  runId: '8f3c1a2b-5d4e-4f60-9a7b-1c2d3e4f5a6b',
  pageUrl: 'https://testrun.example.com/runs/8f3c1a2b-5d4e-4f60-9a7b-1c2d3e4f5a6b',
  state: 'failed',
  tally: tally.toJSON(),
  durationMs: 83_400,
  covers: { whole: true },
  statusWords,
});
const body = micromark(markdown, {
  allowDangerousHtml: true,
  extensions: [gfm()],
  htmlExtensions: [gfmHtml()],
});
const css = fs.readFileSync(
  new URL('../node_modules/github-markdown-css/github-markdown-light.css', import.meta.url),
  'utf8',
);
const page = `<!doctype html><html><head><meta charset="utf-8"><style>${css}
body { margin: 0; background: #f6f8fa; font-family: -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; }
.frame { margin: 16px; background: #fff; border: 1px solid #d0d7de; border-radius: 6px; }
.frame > header { padding: 12px 16px; border-bottom: 1px solid #d0d7de; font-weight: 600; font-size: 14px; }
.markdown-body { padding: 16px 24px; font-size: 14px; }
</style></head><body><div class="frame"><header>test summary</header><article class="markdown-body">${body}</article></div></body></html>`;

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium' });
try {
  const tab = await browser.newPage({ viewport: { width: 900, height: 400 }, deviceScaleFactor: 1 });
  await tab.setContent(page);
  // The slowest tests folded, as a reader first sees them; the picture shows them open.
  await tab.evaluate(() => {
    for (const details of document.querySelectorAll('details')) details.open = true;
  });
  const frame = await tab.$('.frame');
  await frame.screenshot({ path: new URL('../docs/images/ci-summary.png', import.meta.url).pathname });
} finally {
  await browser.close();
}
console.log('docs/images/ci-summary.png');
