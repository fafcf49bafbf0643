import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  AWAIT_RUNS_TIMEOUT_MS,
  CUCUMBER_PROJECT,
  CUCUMBER_RESULTS,
  CUCUMBER_SUMMARY,
  frameworkBin,
  identities,
  type RunOutcome,
  reporterEnv,
  resultsTagged,
  runCucumber,
  startTestServer,
  type TestServer,
} from '@testrun/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The Cucumber fixture under every supported Cucumber major, serial and --parallel, held to
// the results the e2e tests hold Cucumber 12 to (CUCUMBER_RESULTS). Cucumber 12 is this
// repo's own; 10 (WebdriverIO 9's Cucumber framework ships it), 11 and 13 are installed in
// compat/cucumber-<major>/, where the fixture is
// copied so that Cucumber and the formatter resolve against that install. Cucumber 13
// needs Node 22 or later: its install brings Node 24 (the `node` package).

const COMPAT_DIR = path.dirname(fileURLToPath(import.meta.url));

interface Leg {
  label: string;
  version: RegExp;
  install?: string;
  ownNode?: boolean;
}

const LEGS: Leg[] = [
  { label: 'Cucumber 10', version: /^10\./, install: 'cucumber-10' },
  { label: 'Cucumber 11', version: /^11\./, install: 'cucumber-11' },
  { label: 'Cucumber 12', version: /^12\./ },
  { label: 'Cucumber 13', version: /^13\./, install: 'cucumber-13', ownNode: true },
];

/** Where the leg runs the fixture, with which cucumber-js and Node. */
function legSetup(leg: Leg) {
  if (!leg.install) return {};
  const installDir = path.join(COMPAT_DIR, leg.install);
  const cwd = path.join(installDir, 'fixture', 'cucumber-project');
  fs.rmSync(cwd, { recursive: true, force: true });
  fs.cpSync(CUCUMBER_PROJECT, cwd, { recursive: true });
  return {
    cwd,
    bin: frameworkBin('@cucumber/cucumber', installDir, 'cucumber-js'),
    nodePath: leg.ownNode ? frameworkBin('node', installDir) : undefined,
  };
}

describe.each(LEGS)('the Cucumber fixture under $label', (leg) => {
  let server: TestServer;
  let serial: RunOutcome;
  let parallel: RunOutcome;

  beforeAll(async () => {
    server = await startTestServer();
    const setup = legSetup(leg);
    [serial, parallel] = await Promise.all([
      runCucumber({ ...setup, env: reporterEnv(server, { TESTRUN_TAGS: 'serial' }) }),
      runCucumber({
        ...setup,
        args: ['--parallel', '2'],
        env: reporterEnv(server, { TESTRUN_TAGS: 'parallel' }),
      }),
    ]);
  }, AWAIT_RUNS_TIMEOUT_MS);

  afterAll(() => server?.close());

  it('ran that version of Cucumber', () => {
    const agents = new Set(server.server.requests.map((request) => request.userAgent));
    expect(agents.size, [...agents].join('\n')).toBe(1);
    const [, framework, version, node] =
      /\(([\w-]+)\/([^;]+); node\/([^)]+)\)$/.exec([...agents][0] ?? '') ?? [];
    expect(framework).toBe('cucumber');
    expect(version).toMatch(leg.version);
    if (leg.ownNode) expect(Number(node?.split('.')[0])).toBeGreaterThanOrEqual(22);
    else expect(node).toBe(process.versions.node);
  });

  it('stores exactly the written-down results, serial and --parallel, each in one run', async () => {
    expect(identities(await resultsTagged(server, 'serial')), `${serial.stdout}\n${serial.stderr}`).toEqual(
      identities(CUCUMBER_RESULTS),
    );
    expect(
      identities(await resultsTagged(server, 'parallel')),
      `${parallel.stdout}\n${parallel.stderr}`,
    ).toEqual(identities(CUCUMBER_RESULTS));
  });

  it('says where a scenario failed: its failed (or undefined) step’s line in the feature file, else its own line', async () => {
    const serialResults = await resultsTagged(server, 'serial');
    const where = (testSuite: string, testCase: string) =>
      serialResults.find((result) => result.testSuite === testSuite && result.testCase === testCase)?.details
        ?.location;
    expect([
      where('features/cart.feature', 'cart > fails on purpose'),
      where('features/cart.feature', 'cart > has an undefined step'),
      where('features/hooks.feature', 'hooks > has a Before hook that fails'),
    ]).toEqual(['features/cart.feature:5', 'features/cart.feature:9', 'features/hooks.feature:4']);
  });

  it('leaves the exit code as Cucumber sets it (1, for the fixture fails on purpose) and its console output', () => {
    expect([serial.code, parallel.code]).toEqual([1, 1]);
    // Progress's line of dots, one per step; Cucumber 13 words its summary its own way.
    for (const outcome of [serial, parallel]) expect(outcome.stdout).toMatch(/^[.FUP-]{31,}$/m);
    if (!leg.ownNode) expect(serial.stdout).toContain(CUCUMBER_SUMMARY);
  });
});
