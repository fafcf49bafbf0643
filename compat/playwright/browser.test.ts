import fs from 'node:fs';
import {
  identities,
  playwrightFixtures,
  reporterEnv,
  runPlaywright,
  startTestServer,
} from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

// A Playwright test that drives a real browser, reported like any other. Playwright
// downloads no browser here: the fixture launches Debian's Chromium (installed by .ci/run).
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveChromium = fs.existsSync(CHROMIUM);
if (!haveChromium) {
  console.warn(
    `Playwright browser test skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`,
  );
}

describe.skipIf(!haveChromium)('a Playwright run that drives Chromium', () => {
  it('stores the results of the tests that used a page', async () => {
    const server = await startTestServer();
    const outcome = await runPlaywright({
      cwd: playwrightFixtures.browser,
      env: reporterEnv(server, { CHROMIUM_PATH: CHROMIUM }),
    });

    expect(outcome.code, `${outcome.stdout}\n${outcome.stderr}`).toBe(0);
    const [run] = await server.server.store.runs();
    const stored = await server.server.store.results(run!.id);
    expect(identities(stored)).toEqual(
      identities([
        { testSuite: 'page.test.js', testCase: 'a page in Chromium > shows its heading', status: 'passed' },
        { testSuite: 'page.test.js', testCase: 'a page in Chromium > clicks a button', status: 'passed' },
      ]),
    );
    // Each test really ran in the browser: it took time to start a page.
    for (const result of stored) expect(result.duration).toBeGreaterThan(0);
  });
});
