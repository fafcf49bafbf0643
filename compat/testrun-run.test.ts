import {
  CANCELLED_FINISHED,
  cancelUnderTestrunRun,
  FRAMEWORKS,
  identities,
  runLimiter,
} from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

// e2e/testrun-run.test.ts's promise under every runner and both cancels (pnpm test runs two
// of these ten): `testrun run -- <runner>` sent SIGINT or SIGTERM exits as the runner alone
// does, keeps every finished test, and ends its one run interrupted.

const limited = runLimiter();
const CASES = FRAMEWORKS.flatMap((framework) =>
  (['SIGINT', 'SIGTERM'] as const).map((signal) => [framework.name, signal] as const),
);

describe.concurrent('testrun run around every runner, cancelled', () => {
  it.each(CASES)('%s on %s', async (name, signal) => {
    const framework = FRAMEWORKS.find((candidate) => candidate.name === name)!;
    const { outcome, alone, replayed, runs, end, kept } = await limited(() =>
      cancelUnderTestrunRun(framework, signal),
    );
    expect({ code: outcome.code, signal: outcome.signal }, outcome.stderr).toEqual({
      code: alone,
      signal: null,
    });
    expect(runs.map((run) => run.framework)).toEqual([name]);
    expect(end).toMatchObject({ status: 'interrupted' });
    expect({ code: replayed?.code ?? 0, stderr: replayed?.stderr ?? '' }).toEqual({ code: 0, stderr: '' });
    expect(identities(kept)).toEqual(identities(CANCELLED_FINISHED));
  });
});
