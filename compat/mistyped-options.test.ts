import {
  AWAIT_RUNS_TIMEOUT_MS,
  identities,
  mochaFixtures,
  PASSING_RESULTS,
  reporterEnv,
  resultsTagged,
  runMocha,
  startTestServer,
  testrunLines,
} from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

// Mocha hands the reporter every `--reporter-option`, its own and the wrapped reporter's, so
// a name testrun does not know cannot turn reporting off; one close to a testrun option still
// gets the hint the other reporters give, in one line, and the run is reported as ever.

describe('Mocha reporter options with misspelt names', () => {
  it(
    'prints the hint for each in one line and still reports every result',
    async () => {
      const server = await startTestServer();
      const outcome = await runMocha({
        cwd: mochaFixtures.passing,
        args: [
          ...['--reporter-option', 'projct=typo'],
          ...['--reporter-option', 'flushTimout=5'],
          ...['--reporter-option', 'tags=typos'],
        ],
        env: reporterEnv(server),
      });

      expect(testrunLines(outcome.stderr), outcome.stderr).toEqual([
        'testrun: unknown option "projct"; did you mean "project"? unknown option "flushTimout"; did you mean "flushTimeout"? Reporting goes on without them: reporter options testrun does not know are the spec reporter\'s.',
        expect.stringMatching(/^testrun: 7 results → run /),
      ]);
      expect(identities(await resultsTagged(server, 'typos'))).toEqual(identities(PASSING_RESULTS));
      expect((await server.server.store.runs()).map((run) => run.project)).toEqual(['passing-fixture']);
      expect(outcome.code).toBe(0);
    },
    AWAIT_RUNS_TIMEOUT_MS,
  );
});
