import fs from 'node:fs';
import type { FaultHook } from '@testrun/server';
import {
  closedPortUrl,
  FRAMEWORKS,
  identities,
  PASSING_RESULTS,
  REPORTER_OPTIONS_VAR,
  readSpoolLines,
  reporterEnv,
  runCli,
  seededFaults,
  startTestServer,
  type TestServer,
  testrunLines,
} from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

// The promise of "When the service misbehaves" (README), held through real Vitest, Jest
// and Playwright processes: no result lost or duplicated, the exit code unchanged, and the reporter
// done within its deadline.

function serverWith(faults?: FaultHook, options: Parameters<typeof startTestServer>[0] = {}) {
  return startTestServer({ ...options, faults });
}

/** Reporter env for `server` with the given reporter options. */
function envFor(server: { url: string; apiKey: string }, options: object = {}) {
  return reporterEnv(server, { [REPORTER_OPTIONS_VAR]: JSON.stringify(options) });
}

function storedOnce(server: TestServer) {
  const runs = server.server.store.runs();
  expect(runs).toHaveLength(1);
  return identities(server.server.store.results(runs[0]!.id));
}

/** The flush time the summary line reports: `(N requests, X s)`. */
function flushSeconds(stderr: string): number {
  const match = stderr.match(/requests?, ([\d.]+) s\)/);
  if (!match) throw new Error(`no summary line in:\n${stderr}`);
  return Number(match[1]);
}

describe.each(FRAMEWORKS)('$name when the service misbehaves', ({ name, run, fixtures, retries }) => {
  // How core answers what the service does (Retry-After, 413, a lost response, a hung
  // request, a refused key, an odd create-run answer, a proxy variable) is proven under
  // Vitest, Jest and Playwright. Mocha and node:test prove what their adapters add: delivery
  // before the process exits through faults, the flush deadline, spool and replay, options
  // and names.
  const coreRule = name === 'mocha' || name === 'node-test' ? it.skip : it;

  it('delivers every result once through 5xx answers and dropped connections', async () => {
    const server = await serverWith(seededFaults({ seed: 7, rates: { status5xx: 0.3, drop: 0.1 } }));
    const outcome = await run({
      cwd: fixtures.passing,
      env: envFor(server, { batchSize: 1, maxRetries: 10 }),
    });
    expect(outcome.code).toBe(0);
    expect(storedOnce(server)).toEqual(identities(PASSING_RESULTS));
    expect(server.server.requests.some((r) => r.status === 'dropped' || (r.status as number) >= 500)).toBe(
      true,
    );
  });

  coreRule('waits out a 429 Retry-After before sending again', async () => {
    const server = await serverWith((req) =>
      req.route === 'submitResults' && req.n === 0
        ? { status: 429, headers: { 'retry-after': '1' } }
        : undefined,
    );
    const outcome = await run({ cwd: fixtures.passing, env: envFor(server) });
    const submits = server.server.requests.filter((r) => r.route === 'submitResults');
    expect(submits[0]!.status).toBe(429);
    // The retry of that body (the same key): another file's batch may go out in between on a busy machine.
    const retry = submits.slice(1).find((r) => r.idempotencyKey === submits[0]!.idempotencyKey);
    expect(retry!.at - submits[0]!.at).toBeGreaterThanOrEqual(1000);
    expect(storedOnce(server)).toEqual(identities(PASSING_RESULTS));
    expect(outcome.code).toBe(0);
  });

  coreRule('splits batches a server refuses with 413 until every result is stored', async () => {
    const server = await serverWith(undefined, { maxResultsPerRequest: 2 });
    const outcome = await run({ cwd: fixtures.passing, env: envFor(server, { flushInterval: 5000 }) });
    expect(server.server.requests.some((r) => r.status === 413)).toBe(true);
    expect(storedOnce(server)).toEqual(identities(PASSING_RESULTS));
    expect(outcome.code).toBe(0);
  });

  coreRule('stores a batch once when its response is lost after the server stored it', async () => {
    const server = await serverWith((req) =>
      req.route === 'submitResults' && req.n === 0 ? { drop: 'after' } : undefined,
    );
    const outcome = await run({ cwd: fixtures.passing, env: envFor(server) });
    expect(server.server.requests.map((r) => r.status)).toContain('dropped');
    expect(storedOnce(server)).toEqual(identities(PASSING_RESULTS));
    expect(outcome.code).toBe(0);
  });

  coreRule('abandons attempts slower than requestTimeout and retries them', async () => {
    const server = await serverWith((req) =>
      req.route === 'submitResults' && req.n < 2 ? { delayMs: 1500 } : undefined,
    );
    const outcome = await run({ cwd: fixtures.passing, env: envFor(server, { requestTimeout: 300 }) });
    expect(storedOnce(server)).toEqual(identities(PASSING_RESULTS));
    expect(outcome.code).toBe(0);
  });

  it('ends the flush within flushTimeout + 1 s when the server never answers in time', async () => {
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

  it('spools everything while the server is down, and replay delivers it exactly once', async () => {
    const env = envFor({ url: await closedPortUrl(), apiKey: 'replay-key-1234' }, { flushTimeout: 1500 });
    const outcome = await run({ cwd: fixtures.passing, env });
    expect(outcome.code).toBe(0);
    expect(flushSeconds(outcome.stderr)).toBeLessThanOrEqual(1.5 + 1);
    expect(testrunLines(outcome.stderr).at(-1)).toMatch(/7 spooled to .*npx testrun replay/);

    const server = await serverWith(undefined, { apiKey: 'replay-key-1234' });
    const cliEnv = { PATH: process.env.PATH, TESTRUN_API_KEY: server.apiKey, TESTRUN_BASE_URL: server.url };
    const replayed = await runCli(['replay', '--dir', env.TESTRUN_SPOOL_DIR!, '--ignore-recorded-url'], {
      env: cliEnv,
    });
    expect(replayed.code).toBe(0);
    expect(fs.readdirSync(env.TESTRUN_SPOOL_DIR!)).toEqual([]);
    expect(server.server.store.runs()[0]).toMatchObject({ project: 'passing-fixture', framework: name });
    expect(storedOnce(server)).toEqual(identities(PASSING_RESULTS));
  });

  coreRule.each([401, 403])(
    'stops at a %i with one line naming TESTRUN_API_KEY and spools the results',
    async (status) => {
      const server = await serverWith(() => ({ status }));
      const env = envFor(server);
      const outcome = await run({ cwd: fixtures.passing, env });
      expect(server.server.requests.length).toBeLessThanOrEqual(2);
      expect(testrunLines(outcome.stderr).filter((line) => line.includes('TESTRUN_API_KEY'))).toHaveLength(1);
      const spooled = readSpoolLines(env.TESTRUN_SPOOL_DIR!).filter((line) => line.type === 'batch');
      expect(spooled.flatMap((line) => line.results as never[])).toHaveLength(PASSING_RESULTS.length);
      expect(outcome.code).toBe(0);
    },
  );

  coreRule.each([
    ['an HTML page', 'text/html', '<!doctype html><title>Sign in</title>'],
    ['JSON without an id', 'application/json', '{"status":"created"}'],
  ])('explains a create-run answered 200 with %s and spools the results', async (_kind, type, body) => {
    const server = await serverWith((req) =>
      req.route === 'createRun' ? { status: 200, headers: { 'content-type': type }, body } : undefined,
    );
    const env = envFor(server);
    const outcome = await run({ cwd: fixtures.passing, env });
    expect(testrunLines(outcome.stderr)).toContainEqual(
      expect.stringContaining(`create run answered 200 but no run id was found`),
    );
    expect(outcome.stderr).toContain(JSON.stringify(body).slice(1, 20));
    expect(readSpoolLines(env.TESTRUN_SPOOL_DIR!)[0]).toMatchObject({ type: 'run', runId: null });
    expect(outcome.code).toBe(0);
  });

  it('names each bad option and the expected form, and still runs the tests', async () => {
    const server = await serverWith();
    // Mocha's options are strings, where any text is a list of tags: no tags are wrong there.
    const badTags = name === 'mocha' ? {} : { tags: 'a,b' };
    const options = { batchSize: 'lots', ...badTags, durationUnit: 'minutes', flushTimeout: -1 };
    const outcome = await run({ cwd: fixtures.passing, env: envFor(server, options) });
    const [line, ...others] = testrunLines(outcome.stderr);
    expect(others).toEqual([]);
    expect(line).toMatch(/^testrun: reporting is off: /);
    expect(line).toContain('option batchSize must be a whole number from 1 to 10000, got "lots".');
    if (name !== 'mocha') {
      expect(line).toContain('option tags must be an array of strings, e.g. ["nightly"], got "a,b".');
    }
    expect(line).toContain('option durationUnit must be "ms" or "s", got "minutes".');
    expect(line).toContain('option flushTimeout must be a whole number from 1 to 3600000, got -1.');
    expect(server.server.requests).toEqual([]);
    expect(outcome.code).toBe(0);
  });

  coreRule('names a malformed proxy variable and still runs the tests', async () => {
    const server = await serverWith();
    const outcome = await run({
      cwd: fixtures.passing,
      env: { ...envFor(server), HTTPS_PROXY: '10.0.0.1:3128' },
    });
    expect(testrunLines(outcome.stderr)).toEqual([
      expect.stringContaining(
        'HTTPS_PROXY must be a proxy URL such as http://proxy.example:3128, got "10.0.0.1:3128"',
      ),
    ]);
    expect(server.server.requests).toEqual([]);
    expect(outcome.code).toBe(0);
  });

  it('cleans odd names and durations instead of losing the results, and reports a retried test once', async () => {
    const server = await serverWith();
    const outcome = await run({ cwd: fixtures.oddNames, env: reporterEnv(server) });
    expect(outcome.code).toBe(0);
    const runs = server.server.store.runs();
    const stored = server.server.store.results(runs[0]!.id);
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
    const long = cases.find((c) => c.startsWith('odd names > xxx'));
    expect(Array.from(long!)).toHaveLength(1024);
    expect(long!.endsWith('x…')).toBe(true);
    const durations = Object.fromEntries(stored.map((r) => [r.testCase, r.duration]));
    for (const name of ['NaN', 'negative', 'missing', 'Infinity']) {
      expect(durations[`odd durations > ${name}`]).toBe(0);
    }
    // node:test has no retries: its fixture has no retried test.
    expect(stored.filter((r) => r.testSuite === 'retried.test.js')).toEqual(
      retries
        ? [expect.objectContaining({ testCase: 'retried > passes on the second attempt', status: 'passed' })]
        : [],
    );
    expect(stored).toHaveLength(retries ? 11 : 10);
  });
});

describe('jest --forceExit', () => {
  it('delivers every result before Jest exits', async () => {
    const server = await serverWith((req) => (req.route === 'submitResults' ? { delayMs: 500 } : undefined));
    const jest = FRAMEWORKS.find((framework) => framework.name === 'jest')!;
    const outcome = await jest.run({
      cwd: jest.fixtures.passing,
      args: ['--forceExit'],
      env: envFor(server),
    });
    expect(outcome.code).toBe(0);
    expect(storedOnce(server)).toEqual(identities(PASSING_RESULTS));
  });
});
