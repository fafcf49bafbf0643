import { createHash } from 'node:crypto';
import type { FaultHook } from '@testrun/server';
import {
  FRAMEWORKS,
  type Framework,
  frameworksHere,
  identities,
  PASSING_RESULTS,
  REPORTER_OPTIONS_VAR,
  readSpoolLines,
  reporterEnv,
  runLimiter,
  runsLegsOf,
  seededFaults,
  startTestServer,
  type TestServer,
  testrunLines,
} from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

function serverWith(faults?: FaultHook, options: Parameters<typeof startTestServer>[0] = {}) {
  return startTestServer({ ...options, faults });
}

/** Reporter env for `server` with the given reporter options. */
function envFor(server: { url: string; apiKey: string }, options: object = {}) {
  return reporterEnv(server, { [REPORTER_OPTIONS_VAR]: JSON.stringify(options) });
}

async function storedOnce(server: TestServer) {
  const runs = await server.server.store.runs();
  expect(runs).toHaveLength(1);
  return identities(await server.server.store.results(runs[0]!.id));
}

/** The flush time the summary line reports: `(N requests, X s)`. */
function flushSeconds(stderr: string): number {
  const match = stderr.match(/requests?, ([\d.]+) s\)/);
  if (!match) throw new Error(`no summary line in:\n${stderr}`);
  return Number(match[1]);
}

// Every fault and its rule is proven once in core, over both transports
// (packages/core/test/delivery/delivery-under-faults.test.ts). Here, what only a real
// framework process shows: through the faults, nothing lost or duplicated, the exit code
// unchanged and the reporter done within its deadline. Most of each test is waiting (a
// Retry-After, slow answers, a deadline), so each framework's tests run side by side, each
// against a server of its own.
/** The framework runs of the tests that run side by side, a few at a time. */
const limited = runLimiter();

describe.concurrent.each(frameworksHere())('$name when the service misbehaves', (framework) => {
  const { name, fixtures, retries } = framework;
  const run: Framework['run'] = (options) => limited(() => framework.run(options));
  it('stores every result once through 5xx, dropped connections, a 429 Retry-After, 413 and slow answers, exit code unchanged', async () => {
    const flaky = seededFaults({ seed: 7, rates: { status5xx: 0.25, drop: 0.1 } });
    const server = await serverWith(
      (request) => {
        if (request.route === 'submitResults' && request.n === 0) {
          return { status: 429, headers: { 'retry-after': '1' } };
        }
        if (request.route === 'submitResults' && request.n === 1) return { delayMs: 1500 };
        return flaky(request);
      },
      { maxResultsPerRequest: 2, announceResultLimits: false },
    );
    const outcome = await run({
      cwd: fixtures.passing,
      env: envFor(server, { maxRetries: 12, requestTimeout: 400, flushInterval: 5000 }),
    });
    expect(outcome.code).toBe(0);
    expect(await storedOnce(server)).toEqual(identities(PASSING_RESULTS));
    const statuses = server.server.requests.map((request) => request.status);
    expect(statuses).toEqual(expect.arrayContaining([429, 413]));
  });

  it('is done within flushTimeout + 1 s when the service never answers, spooling everything, exit code unchanged', async () => {
    const server = await serverWith((req) =>
      req.route === 'submitResults' ? { delayMs: 30_000 } : undefined,
    );
    const env = envFor(server, { requestTimeout: 400, flushTimeout: 1500 });
    const outcome = await run({ cwd: fixtures.passing, env });
    expect(flushSeconds(outcome.stderr)).toBeLessThanOrEqual(1.5 + 1);
    expect(outcome.code).toBe(0);
    const spooled = readSpoolLines(env.TESTRUN_SPOOL_DIR!).filter((line) => line.type === 'batch');
    expect(identities(spooled.flatMap((line) => line.results as never[]))).toEqual(
      identities(PASSING_RESULTS),
    );
  });

  it('names each bad option and proxy variable with the expected form, and still runs the tests', async () => {
    const server = await serverWith();
    // Mocha's options are strings, where any text is a list of tags: no tags are wrong there.
    const badTags = name === 'mocha' ? {} : { tags: 'a,b' };
    const options = { batchSize: 'lots', ...badTags, durationUnit: 'minutes', flushTimeout: -1 };
    const outcome = await run({
      cwd: fixtures.passing,
      env: { ...envFor(server, options), HTTPS_PROXY: '10.0.0.1:3128' },
    });
    const [line, ...others] = testrunLines(outcome.stderr);
    expect(others).toEqual([]);
    expect(line).toMatch(/^testrun: reporting is off: /);
    expect(line).toContain('option batchSize must be a whole number from 1 to 10000, got "lots".');
    if (name !== 'mocha') {
      expect(line).toContain('option tags must be an array of strings, e.g. ["nightly"], got "a,b".');
    }
    expect(line).toContain('option durationUnit must be "ms" or "s", got "minutes".');
    expect(line).toContain('option flushTimeout must be a whole number from 1 to 3600000, got -1.');
    expect(line).toContain(
      'HTTPS_PROXY must be a proxy URL such as http://proxy.example:3128, got "10.0.0.1:3128"',
    );
    expect(server.server.requests).toEqual([]);
    expect(outcome.code).toBe(0);
  });

  it('cleans odd names and durations instead of losing the results, keeps long names apart, and reports a retried test once', async () => {
    const server = await serverWith();
    const outcome = await run({ cwd: fixtures.oddNames, env: reporterEnv(server) });
    expect(outcome.code).toBe(0);
    const runs = await server.server.store.runs();
    const stored = await server.server.store.results(runs[0]!.id);
    const cases = stored.map((r) => r.testCase);
    expect(cases).toEqual(
      expect.arrayContaining([
        // node:test names a test without a title `<anonymous>` itself.
        name === 'node-test' ? 'odd names > <anonymous>' : 'odd names > (unnamed)',
        'odd names > line one line two',
        'odd names > nul byte',
        'odd names > tab here',
        'odd names > 🚀 ünïcödé 中文',
      ]),
    );
    // Names too long to keep are cut with the mark of the whole name (docs/naming.md): two that
    // differ only after the 1,024th character are two identities, each as the rule writes it.
    const cut = (whole: string) =>
      `${whole.slice(0, 1_006)}…#${createHash('sha256').update(whole, 'utf8').digest('hex').slice(0, 16)}`;
    const longNames = [
      `odd names > ${'x'.repeat(10 * 1024)}`,
      `odd names > ${'y'.repeat(1_099)}1`,
      `odd names > ${'y'.repeat(1_099)}2`,
    ];
    for (const whole of longNames) expect(cases.filter((c) => c === cut(whole))).toHaveLength(1);
    expect(new Set(longNames.map(cut)).size).toBe(3);
    const durations = Object.fromEntries(stored.map((r) => [r.testCase, r.duration]));
    for (const durationCase of ['NaN', 'negative', 'missing', 'Infinity', '1e308']) {
      expect(durations[`odd durations > ${durationCase}`]).toBe(0);
    }
    // node:test has no retries: its fixture has no retried test.
    expect(stored.filter((r) => r.testSuite === 'retried.test.js')).toEqual(
      retries
        ? [
            expect.objectContaining({
              testCase: 'retried > passes on the second attempt',
              status: 'passed',
            }),
          ]
        : [],
    );
    expect(stored).toHaveLength(retries ? 14 : 13);
  });
});

if (runsLegsOf('jest'))
  describe('jest --forceExit', () => {
    it('delivers every result before Jest exits', async () => {
      const server = await serverWith((req) =>
        req.route === 'submitResults' ? { delayMs: 500 } : undefined,
      );
      const jest = FRAMEWORKS.find((framework) => framework.name === 'jest')!;
      const outcome = await jest.run({
        cwd: jest.fixtures.passing,
        args: ['--forceExit'],
        env: envFor(server),
      });
      expect(outcome.code).toBe(0);
      expect(await storedOnce(server)).toEqual(identities(PASSING_RESULTS));
    });
  });
