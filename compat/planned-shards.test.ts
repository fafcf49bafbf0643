import {
  cleanEnv,
  type Framework,
  reporterEnv,
  runCli,
  runJest,
  runMocha,
  runNodeTest,
  runPlaywright,
  runVitest,
  startTestServer,
  type TestServer,
  type TimedFile,
  timedSuite,
} from '@testrun/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The four shards of every runner, each run with the files `testrun plan` printed for it
// (Jest with --runTestsByPath, Playwright with --format playwright), into one run: every file
// exactly once across the four (docs/sharding.md). pnpm test holds one shard of each runner
// (e2e/planned-shards.test.ts): these are the twenty framework runs that would cost it.

const PROJECT = 'shop';
const KEY = 'compat-build';
const SHARDS = 4;
const FILES: readonly TimedFile[] = [
  { name: 'cart.test.js', ms: 200 },
  { name: 'admin/cart.test.js', ms: 150 },
  { name: 'search.test.js', ms: 120 },
  { name: 'login.test.js', ms: 90 },
  { name: 'admin/login.test.js', ms: 70 },
  { name: 'profile.test.js', ms: 50 },
  { name: 'orders.test.js', ms: 30 },
  { name: 'help.test.js', ms: 20 },
  { name: 'about.test.js', ms: 10 },
];
const NAMES = FILES.map((file) => file.name);

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  // The first run: each file's time, as a reporter sends it.
  const headers = { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' };
  const created = await fetch(`${server.url}/api/v1/runs`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ project: PROJECT, framework: 'node-test', tags: [] }),
  });
  const { id } = (await created.json()) as { id: string };
  const results = FILES.map(({ name, ms }) => ({
    testSuite: name,
    testCase: 't',
    status: 'passed',
    duration: ms,
  }));
  await fetch(`${server.url}/api/v1/runs/${id}/results`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ results }),
  });
  await fetch(`${server.url}/api/v1/runs/${id}`, {
    method: 'PATCH',
    headers,
    body: '{"status":"completed"}',
  });
});

afterAll(() => server?.close());

type Run = (options: Parameters<typeof runVitest>[0]) => ReturnType<typeof runVitest>;

interface Leg {
  label: string;
  framework: Framework['name'];
  run: Run;
  /** `plan`: each shard runs the files testrun plan printed; `sequencer`: the runner's own --shard with testrun's sequencer. */
  mode: 'plan' | 'sequencer';
  runnerArgs?: string[];
  planArgs?: string[];
  configs?: Record<string, string>;
}

const OPTIONS = "const options = JSON.parse(process.env.FIXTURE_REPORTER_OPTIONS ?? '{}');";

const LEGS: Leg[] = [
  {
    label: 'Vitest, its own --shard with the sequencer',
    framework: 'vitest',
    run: runVitest,
    mode: 'sequencer',
    configs: {
      'vitest.config.mjs': `import { TestrunSequencer } from '@testrun/vitest/sequencer';
import { defineConfig } from 'vitest/config';
${OPTIONS}
export default defineConfig({
  test: { isolate: false, include: ['**/*.test.js'], reporters: ['default', ['@testrun/vitest', options]], sequence: { sequencer: TestrunSequencer } },
});
`,
    },
  },
  {
    label: 'Jest, its own --shard with the sequencer',
    framework: 'jest',
    run: runJest,
    mode: 'sequencer',
    configs: {
      'jest.config.cjs': `${OPTIONS}
module.exports = { testMatch: ['**/*.test.js'], reporters: ['default', ['@testrun/jest', options]], testSequencer: '@testrun/jest/sequencer' };
`,
    },
  },
  {
    label: 'Jest, --runTestsByPath',
    framework: 'jest',
    run: runJest,
    mode: 'plan',
    runnerArgs: ['--runTestsByPath'],
  },
  {
    label: 'Playwright, --format playwright',
    framework: 'playwright',
    run: runPlaywright,
    mode: 'plan',
    planArgs: ['--format', 'playwright'],
  },
  { label: 'Mocha', framework: 'mocha', run: runMocha, mode: 'plan' },
  { label: 'node --test', framework: 'node-test', run: runNodeTest, mode: 'plan' },
];

describe.each(LEGS)('$label: four shards', (leg) => {
  it('run every file exactly once across the four, into one run whose page shows the four', async () => {
    const cwd = timedSuite(leg.framework, FILES, leg.configs);
    const key = `${KEY}-${leg.label}`;
    const runCreated = await runCli(['create-run', '--project', PROJECT, '--framework', leg.framework], {
      env: cleanEnv({ TESTRUN_API_KEY: server.apiKey, TESTRUN_BASE_URL: server.url }),
    });
    expect(runCreated.code, runCreated.stderr).toBe(0);
    const handle = runCreated.stdout.trim();
    const runId = handle.split(';')[0]!;
    await Promise.all(
      Array.from({ length: SHARDS }, async (_, i) => {
        const shard = `${i + 1}/${SHARDS}`;
        const env = reporterEnv(server, {
          TESTRUN_RUN_ID: handle,
          TESTRUN_SHARD: shard,
          TESTRUN_PROJECT: PROJECT,
          TESTRUN_PLAN_KEY: key,
        });
        let args = [`--shard=${shard}`];
        if (leg.mode === 'plan') {
          const printed = await runCli(['plan', ...(leg.planArgs ?? []), ...NAMES], {
            cwd,
            env: cleanEnv(env),
          });
          expect(printed.code, printed.stderr).toBe(0);
          expect(printed.stderr).toContain("from the service's durations");
          args = printed.stdout.trim().split('\n');
          expect(args.length).toBeGreaterThan(0);
        }
        const outcome = await leg.run({ cwd, args: [...(leg.runnerArgs ?? []), ...args], env });
        expect(outcome.code, outcome.stderr + outcome.stdout).toBe(0);
        expect(outcome.stderr + outcome.stdout).not.toContain('split by file size');
      }),
    );
    const stored = (await server.server.store.results(runId)).map((result) => result.testSuite);
    expect(stored.sort()).toEqual([...NAMES].sort());
    const page = await (await fetch(`${server.url}/runs/${runId}`)).text();
    expect(page).toContain('<h2 id="shards">Shards (4)</h2>');
  });
});
