import fs from 'node:fs';
import path from 'node:path';
import {
  closedPortUrl,
  copyFixture,
  identities,
  playwrightFixtures,
  readSpoolLines,
  runCli,
  runPlaywright,
  startTestServer,
  TEST_API_KEY,
  testrunLines,
} from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

// The spool is `.testrun/spool` in the folder the test command was started in, for every
// adapter and the CLI alike, so the `npx @testrun/cli replay` the summary line prints, run in
// that folder, finds it. Playwright once put it under its testDir.

describe('where the spool is', () => {
  it('is .testrun/spool where `playwright test` was started, not under its testDir, and `testrun replay` there sends it', async () => {
    const project = copyFixture(playwrightFixtures.passing);
    fs.mkdirSync(path.join(project, 'tests'));
    for (const file of ['math.test.js', 'text.test.js']) {
      fs.renameSync(path.join(project, file), path.join(project, 'tests', file));
    }
    fs.writeFileSync(
      path.join(project, 'playwright.config.mjs'),
      `import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: 'tests',
  reporter: [['list'], ['@testrun/playwright', { flushTimeout: 1000, maxRetries: 0 }]],
});
`,
    );
    // The service is down for the run, and back at the same address for the replay.
    const url = await closedPortUrl();
    const env = { TESTRUN_API_KEY: TEST_API_KEY, TESTRUN_BASE_URL: url };

    const run = await runPlaywright({ cwd: project, env });
    expect(run.code, run.stderr).toBe(0);
    expect(testrunLines(run.stderr).at(-1)).toMatch(
      / spooled to .*: send them with `npx @testrun\/cli replay`; the run's end \(completed\) waits in the spool with them$/,
    );
    expect(fs.existsSync(path.join(project, 'tests', '.testrun'))).toBe(false);
    const spooled = readSpoolLines(path.join(project, '.testrun', 'spool'))
      .filter((line) => line.type === 'batch')
      .flatMap((line) => line.results as never[]);
    expect(spooled.length).toBeGreaterThan(0);

    const server = await startTestServer({ port: Number(new URL(url).port) });
    const replay = await runCli(['replay'], {
      cwd: project,
      env: { PATH: process.env.PATH, TESTRUN_API_KEY: server.apiKey, TESTRUN_BASE_URL: server.url },
    });
    expect(replay.stderr).toBe('');
    expect(replay.code).toBe(0);
    expect(replay.stdout).toContain(
      `${spooled.length} results delivered from 1 spool file, 1 run completed; 0 remain`,
    );
    expect(identities(await server.server.store.allResults())).toEqual(identities(spooled));
  });
});
