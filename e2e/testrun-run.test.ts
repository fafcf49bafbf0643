import { CANCELLED_FINISHED, cancelUnderTestrunRun, FRAMEWORKS, identities } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

// `testrun run -- <runner>` cancelled as a CI job is: the signal goes to `testrun run`, which
// forwards it to the runner's process group. It must exit as the runner alone exits on that
// signal (ENDS_ITSELF_ON, measured without testrun; else 128 + n, as a shell reports a death
// by signal), keep every finished test once (stored, or spooled by the reporter's exit guard and then
// replayed: a batch in flight at the signal may be both, and its idempotency key stores it once), and
// end the one run interrupted. Here one runner and CI's cancel, Jest on SIGTERM (its main
// process and its workers die of it: 143): testrun forwards every signal alike, and a command
// that ends itself on one (130) keeps its code (packages/cli/test/run/run.e2e.test.ts);
// compat/testrun-run.test.ts runs every runner on both SIGINT and SIGTERM (~3.5 CPU-s each).
// What testrun run does around a runner that ends normally: compat/packed/documented-runs.test.ts.

/** The runs here; compat/testrun-run.test.ts runs all ten. */
const IN_SUITE = [['jest', 'SIGTERM']] as const;

describe.concurrent('testrun run around a runner cancelled by a signal', () => {
  it.each(IN_SUITE)(
    '%s: exits on %s as the runner alone does, keeps every finished test, and ends the one run interrupted',
    async (name, signal) => {
      const framework = FRAMEWORKS.find((candidate) => candidate.name === name)!;
      const { outcome, alone, replayed, runs, end, kept } = await cancelUnderTestrunRun(framework, signal);
      expect({ code: outcome.code, signal: outcome.signal }, outcome.stderr).toEqual({
        code: alone,
        signal: null,
      });
      expect(runs.map((run) => run.framework)).toEqual([name]);
      expect(end).toMatchObject({ status: 'interrupted' });
      expect({ code: replayed?.code ?? 0, stderr: replayed?.stderr ?? '' }).toEqual({ code: 0, stderr: '' });
      expect(identities(kept)).toEqual(identities(CANCELLED_FINISHED));
      expect(outcome.stderr).toMatch(
        new RegExp(
          `^testrun run: run ${runs[0]!.id} marked interrupted \\(the command (exited ${alone}|ended by ${signal})\\)`,
          'm',
        ),
      );
    },
  );
});
