import { describe, expect, it } from 'vitest';
import { type CommandEvidence, commandQuarantine } from '../../src/quarantine/command-verdict.js';
import { reporterLine } from '../../src/quarantine/lines.js';
import type { QuarantineOutcome } from '../../src/quarantine/outcome.js';
import type { VerdictPart } from '../../src/quarantine/verdict-part.js';

// Whether `testrun run` may pass a command that failed (docs/design/quarantine.md): every failure a
// quarantined test's, and nothing else failed. Every variation of the evidence is decided here;
// e2e runs real runners once each way (compat/packed/quarantine.test.ts).

const FLAKY = { testSuite: 'math.test.mjs', testCase: 'Math > fails on purpose' };

const quarantinedOnly: QuarantineOutcome = {
  project: 'web',
  failures: 1,
  quarantined: [FLAKY],
  quarantinedCount: 1,
  others: [],
  othersCount: 0,
  listed: 1,
  nearMisses: 0,
};

function part(overrides: Partial<VerdictPart> = {}): VerdictPart {
  return {
    pid: 101,
    exitCode: 1,
    runner: 'vitest',
    ended: true,
    failures: 1,
    outcome: quarantinedOnly,
    testsAlone: true,
    ...overrides,
  };
}

function evidence(overrides: Partial<CommandEvidence> = {}): CommandEvidence {
  return {
    exitCode: 1,
    cancelledOrNotRun: false,
    notOneRunner: undefined,
    verdicts: [part()],
    reporterPids: [101],
    stored: { failed: 1, quarantined: 1 },
    ...overrides,
  };
}

const PASSED = 'passed: 1 quarantined test failed (math.test.mjs › Math > fails on purpose)';
const kept = (why: string) =>
  `failed: 1 quarantined test failed (math.test.mjs › Math > fails on purpose), but ${why}: the command's exit code stands`;

describe("testrun run's verdict with quarantine", () => {
  it('passes a command whose one runner failed for its quarantined test alone', () => {
    expect(commandQuarantine(evidence())).toEqual({ clears: true, line: PASSED });
  });

  it('passes where the service offers no reads: the parts are what is known', () => {
    expect(commandQuarantine(evidence({ stored: undefined }))).toEqual({ clears: true, line: PASSED });
  });

  it('also clears a run the runner passed itself (Playwright in-process): its status is completed', () => {
    expect(commandQuarantine(evidence({ exitCode: 0, verdicts: [part({ exitCode: 0 })] }))).toEqual({
      clears: true,
      line: PASSED,
    });
  });

  it('says nothing, and changes nothing, where no test failed', () => {
    const none = { stored: { failed: 0, quarantined: 0 } };
    expect(
      commandQuarantine(evidence({ ...none, verdicts: [part({ failures: 0, outcome: undefined })] })),
    ).toEqual({ clears: false, line: undefined });
    expect(commandQuarantine(evidence({ ...none, verdicts: [] }))).toEqual({
      clears: false,
      line: undefined,
    });
  });

  it.each<[string, Partial<CommandEvidence>, string]>([
    ['a cancel', { cancelledOrNotRun: true }, 'the command was cancelled, ended by a signal, or did not run'],
    [
      'a command that is not one runner',
      { notOneRunner: "sh -c 'vitest run; eslint .' runs more than one command" },
      "the command is not one test runner (sh -c 'vitest run; eslint .' runs more than one command), so testrun cannot tell that nothing else in it failed",
    ],
    [
      'a reporter that left a summary and no verdict (its process was killed)',
      { reporterPids: [101, 202] },
      "a reporter's process (pid 202) did not say how it ended",
    ],
    [
      'a reporter whose process exited before its run ended',
      { verdicts: [part({ ended: false })] },
      'vitest exited (code 1) before its run ended',
    ],
    [
      'a runner its adapter cannot vouch for',
      {
        verdicts: [
          part({
            testsAlone: false,
            doubt: 'coverage thresholds are set: vitest checks them after its reporters',
          }),
        ],
      },
      'coverage thresholds are set: vitest checks them after its reporters',
    ],
    [
      'a runner its adapter cannot vouch for, saying nothing more',
      { verdicts: [part({ testsAlone: false })] },
      'vitest may fail the run for more than its failed tests',
    ],
    [
      'another reporting process that failed with no failed test',
      {
        verdicts: [part(), part({ pid: 202, failures: 0, outcome: undefined, exitCode: 2, runner: 'jest' })],
        reporterPids: [101, 202],
      },
      'jest exited 2 with no failed test',
    ],
    [
      'a failed result in the service not marked quarantined',
      { stored: { failed: 2, quarantined: 1 } },
      'the service holds 1 failed result of the run not marked quarantined',
    ],
  ])('keeps the exit code after %s, saying why', (_what, overrides, why) => {
    expect(commandQuarantine(evidence(overrides))).toEqual({ clears: false, line: kept(why) });
  });

  it("keeps it when a failure is not a quarantined test's, naming it and why", () => {
    const outcome: QuarantineOutcome = {
      ...quarantinedOnly,
      failures: 2,
      others: [
        {
          testSuite: 'math.test.mjs',
          testCase: 'Math > also fails',
          why: 'not quarantined in project "web"',
        },
      ],
      othersCount: 1,
    };
    expect(commandQuarantine(evidence({ verdicts: [part({ failures: 2, outcome })] }))).toEqual({
      clears: false,
      line: `failed: 1 failure is not a quarantined test's: math.test.mjs › Math > also fails (not quarantined in project "web"); 1 quarantined test failed too (math.test.mjs › Math > fails on purpose)`,
    });
  });

  it('keeps it, saying why, when the service holds quarantined failures that no process vouched for (its process died)', () => {
    expect(commandQuarantine(evidence({ verdicts: [], reporterPids: [101] }))).toEqual({
      clears: false,
      line: "failed: the service holds 1 quarantined test's failure of the run, but a reporter's process (pid 101) did not say how it ended: the command's exit code stands",
    });
  });

  it("keeps it when another process's failures were not judged: its service announced no quarantine", () => {
    const jest = part({ pid: 202, runner: 'jest', outcome: undefined });
    expect(commandQuarantine(evidence({ verdicts: [part(), jest], reporterPids: [101, 202] }))).toEqual({
      clears: false,
      line: 'failed: nothing is quarantined: the service did not announce quarantine for the run',
    });
  });

  it('keeps it when the list could not be read, saying so', () => {
    const outcome: QuarantineOutcome = {
      ...quarantinedOnly,
      quarantined: [],
      quarantinedCount: 0,
      othersCount: 1,
      listed: 0,
      unread: 'the quarantine list could not be read (the service answered 503)',
    };
    expect(commandQuarantine(evidence({ verdicts: [part({ outcome })] }))).toEqual({
      clears: false,
      line: 'failed: nothing is quarantined: the quarantine list could not be read (the service answered 503)',
    });
  });

  it('adds the failures of every process, naming a few and counting the rest', () => {
    const many = (pid: number, count: number): VerdictPart =>
      part({
        pid,
        failures: count,
        outcome: {
          ...quarantinedOnly,
          failures: count,
          quarantinedCount: count,
          quarantined: Array.from({ length: count }, (_, i) => ({
            testSuite: `f${pid}.test.ts`,
            testCase: `t${i}`,
          })),
        },
      });
    const decided = commandQuarantine(
      evidence({ verdicts: [many(1, 2), many(2, 3)], reporterPids: [1, 2], stored: undefined }),
    );
    expect(decided).toEqual({
      clears: true,
      line: 'passed: 5 quarantined tests failed (f1.test.ts › t0, f1.test.ts › t1, f2.test.ts › t0, and 2 more)',
    });
  });
});

describe("a reporter's quarantine line", () => {
  const how = { passes: false, decides: false, doubt: undefined, runner: 'vitest' };

  it.each([
    [
      { ...how, passes: true, decides: true },
      'passed: 1 quarantined test failed (math.test.mjs › Math > fails on purpose)',
    ],
    [
      how,
      '1 quarantined test failed (math.test.mjs › Math > fails on purpose); vitest fails the build for them all the same: run it under testrun run to pass it (docs/quarantine.md)',
    ],
    [
      { ...how, decides: true, doubt: 'Playwright stopped at --max-failures' },
      "failed: 1 quarantined test failed (math.test.mjs › Math > fails on purpose), but Playwright stopped at --max-failures: vitest's verdict stands",
    ],
  ])('%j: %s', (said, line) => {
    expect(reporterLine(quarantinedOnly, said)).toBe(line);
  });

  it('says nothing where nothing failed, or the project quarantines nothing', () => {
    expect(
      reporterLine({ ...quarantinedOnly, failures: 0, quarantinedCount: 0, quarantined: [] }, how),
    ).toBeUndefined();
    const plain: QuarantineOutcome = {
      ...quarantinedOnly,
      quarantined: [],
      quarantinedCount: 0,
      others: [{ ...FLAKY, why: 'not quarantined in project "web"' }],
      othersCount: 1,
      listed: 0,
    };
    expect(reporterLine(plain, how)).toBeUndefined();
    expect(reporterLine({ ...plain, listed: 3 }, how)).toBe(
      'failed: 1 failure is not a quarantined test\'s: math.test.mjs › Math > fails on purpose (not quarantined in project "web")',
    );
  });
});
