import {
  fixtures,
  frameworksHere,
  identities,
  reporterEnv,
  runsLegsOf,
  runVitest,
  startTestServer,
  type TestServer,
} from '@testrun/test-utils';
import { beforeEach, describe, expect, it } from 'vitest';

// A shard the framework refuses runs no file. The service must not hear that a file "failed
// to run": that is a test file broken in the job, and this one is a typo in the job's command.
// The exit code stays the framework's own.

let server: TestServer;

beforeEach(async () => {
  server = await startTestServer();
});

const storedResults = async () => identities(await server.server.store.allResults());

// Mocha has no shards: its jobs each pass a share of the files.
describe.each(frameworksHere().filter((framework) => framework.knowsShards))('$name', (framework) => {
  it('stores nothing for a shard index above the shard count, and keeps the exit code', async () => {
    const cwd = framework.fixtures.passing;
    const args = framework.shardArgs(4, 3, cwd);
    const [withReporter, withoutReporter] = await Promise.all([
      framework.run({ cwd, args, env: reporterEnv(server) }),
      framework.run({ cwd, args, withoutReporter: true }),
    ]);

    expect(withoutReporter.code).not.toBe(0);
    expect(withReporter.code).toBe(withoutReporter.code);
    expect(await storedResults()).toEqual([]);
  });
});

if (runsLegsOf('vitest'))
  describe('Vitest refusing more shards than test files', () => {
    // The passing fixture has two files. Vitest refuses --shard=i/3 only once it has found them,
    // with the run started: its sequencer would give shards 1 and 2 a file each, which never runs.
    it.each([1, 2, 3])(
      'stores the refusal as the run error and no file of shard %i/3, and keeps the exit code',
      async (index) => {
        const args = [`--shard=${index}/3`];
        const [withReporter, withoutReporter] = await Promise.all([
          runVitest({ cwd: fixtures.passing, args, env: reporterEnv(server) }),
          runVitest({ cwd: fixtures.passing, args, withoutReporter: true }),
        ]);

        expect(withoutReporter.code).toBe(1);
        expect(withReporter.code).toBe(1);
        expect(await storedResults()).toEqual([
          {
            testSuite: '(run)',
            testCase: `(unhandled error) Error: --shard <count> must be a smaller than count of test files. Resolved 2 test files for --shard=${index}/3.`,
            status: 'failed',
          },
        ]);
      },
    );
  });
