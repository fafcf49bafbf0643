import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunOutcome } from '../src/process.js';
import { tempDir } from '../src/temp-dir.js';
import { runTestCafe, TESTCAFE_HUNG, untilTestCafeOpensItsBrowsers } from '../src/testcafe.js';

const outcome = (stderr: string): RunOutcome => ({
  code: 1,
  signal: null,
  stdout: '',
  stderr,
  durationMs: 1,
});
const NOT_OPENED =
  'ERROR Unable to open the "chromium:headless --no-sandbox" browser due to the following error:\n\nError: connect ECONNRESET 127.0.0.1:37461';

describe('untilTestCafeOpensItsBrowsers', () => {
  it('runs again while TestCafe could not open a browser, closing each discarded server', async () => {
    const closed: number[] = [];
    let tries = 0;
    const done = await untilTestCafeOpensItsBrowsers(async () => {
      tries += 1;
      const attempt = tries;
      return {
        tries: attempt,
        outcome: outcome(attempt < 2 ? NOT_OPENED : '2/5 failed'),
        server: { close: async () => void closed.push(attempt) },
      };
    });
    expect(done.tries).toBe(2);
    expect(closed).toEqual([1]);
  });

  it('runs again when a browser never connected, answers the third attempt whatever happened, and never retries another failure', async () => {
    let tries = 0;
    const third = await untilTestCafeOpensItsBrowsers(async () => ({
      tries: ++tries,
      outcome: outcome(NOT_OPENED),
    }));
    expect(third.tries).toBe(3);

    tries = 0;
    const neverConnected = await untilTestCafeOpensItsBrowsers(async () => ({
      tries: ++tries,
      outcome: outcome(tries < 2 ? 'ERROR Cannot establish one or more browser connections.' : '2/5 failed'),
    }));
    expect(neverConnected.tries).toBe(2);

    tries = 0;
    const once = await untilTestCafeOpensItsBrowsers(async () => ({
      tries: ++tries,
      outcome: outcome('ERROR Cannot prepare tests due to the following error:\n\nSyntaxError'),
    }));
    expect(once.tries).toBe(1);
  });

  it('runs again when a TestCafe run hung, ended at its timeout with what it printed', async () => {
    const dir = tempDir('testcafe-hung-');
    const bin = path.join(dir, 'hangs.js');
    fs.writeFileSync(bin, "console.log('Running tests in: Chrome'); setInterval(() => {}, 1000);\n");
    let tries = 0;
    const done = await untilTestCafeOpensItsBrowsers(async () => {
      tries += 1;
      return { tries, outcome: await runTestCafe({ bin, cwd: dir, timeoutMs: 300 }) };
    });
    expect(done.tries).toBe(3);
    expect(done.outcome).toMatchObject({ code: null, signal: 'SIGKILL' });
    expect(done.outcome.stderr).toMatch(TESTCAFE_HUNG);
    expect(done.outcome.stderr).toContain('│ Running tests in: Chrome');
    fs.rmSync(dir, { recursive: true });
  });
});
