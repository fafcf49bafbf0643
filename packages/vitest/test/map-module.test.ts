import path from 'node:path';
import { toFailureDetails } from '@testrun/core';
import { describe, expect, it } from 'vitest';
import type { TestModule } from 'vitest/node';
import { errorsOutsideTests } from '../src/errors-outside-tests.js';
import { mapTestModule } from '../src/map-module.js';
import { scheduledFile } from '../src/reporter.js';
import { moduleNamed, RECORDED_PROJECT, recording } from './recorded-modules.js';

// mapTestModule on the objects Vitest itself handed a reporter for fixtures/recorded/project
// (recorded once, see fixtures/recorded/README.md): no Vitest runs here.
const run = recording('run');
const merged = recording('merged');

/** The module's tests as [titles joined, status]. */
function statuses(module: TestModule, options?: Parameters<typeof mapTestModule>[1]) {
  return mapTestModule(module, options).tests.map(({ titles, status }) => [titles.join(' > '), status]);
}

/** What Vitest measured for the test whose name ends `titles`, if it measured anything. */
function measured(module: TestModule, name: string): number | undefined {
  const test = [...module.children.allTests()].find((candidate) => candidate.name === name);
  return test?.diagnostic()?.duration;
}

describe(`mapTestModule on Vitest ${run.version}'s recorded objects`, () => {
  it('gives each test its describe titles outermost first, and passed, failed, skipped or todo', () => {
    expect(statuses(moduleNamed(run.modules, 'cart.test.js'))).toEqual([
      ['cart > totals > sums line items', 'passed'],
      ['cart > totals > rounds half cents to even', 'skipped'],
      ['cart > totals > supports gift cards', 'todo'],
      ['cart > fails on purpose', 'failed'],
      ['legacy checkout > still charges the card', 'skipped'],
      ['a test outside any describe', 'passed'],
    ]);
  });

  it("names the file by Vitest's absolute module path and the root project by its root alone", () => {
    const report = mapTestModule(moduleNamed(run.modules, 'cart.test.js'));
    expect(report.file).toBe(path.join(RECORDED_PROJECT, 'cart.test.js'));
    expect(report.project).toEqual({ name: undefined, root: RECORDED_PROJECT });
    expect(report.variant).toBeUndefined();
  });

  it("takes Vitest's own duration of a test that ran, and 0 for one that did not", () => {
    const module = moduleNamed(run.modules, 'cart.test.js');
    const durations = Object.fromEntries(
      mapTestModule(module).tests.map(({ titles, duration }) => [titles.at(-1), duration]),
    );
    const ran = measured(module, 'fails on purpose');
    expect(ran).toBeGreaterThan(0);
    expect(durations['fails on purpose']).toBe(ran);
    // Vitest has no diagnostic for a test that never started.
    expect(measured(module, 'rounds half cents to even')).toBeUndefined();
    expect(durations['rounds half cents to even']).toBe(0);
    expect(durations['supports gift cards']).toBe(0);
  });

  it('reports a test that passed on a retry once, passed, with the duration Vitest gives it and its attempts', () => {
    const module = moduleNamed(run.modules, 'retried.test.js');
    const [test] = module.children.allTests();
    expect(test!.diagnostic()?.retryCount).toBe(1);
    expect(mapTestModule(module).tests).toEqual([
      {
        titles: ['passes on the second attempt'],
        status: 'passed',
        duration: measured(module, 'passes on the second attempt'),
        attempts: 2,
      },
    ]);
    const atOnce = mapTestModule(moduleNamed(run.modules, 'cart.test.js')).tests;
    expect(atOnce.filter((test) => test.attempts !== undefined)).toEqual([]);
  });

  it('hands core why a test failed: its errors and how many times it ran; core finds the line in the test file', () => {
    const report = mapTestModule(moduleNamed(run.modules, 'cart.test.js'));
    const failed = report.tests.find((test) => test.status === 'failed')!;
    expect(failed.failure?.attempts).toBe(1);
    const [error] = failed.failure!.errors as { message: string; stack: string }[];
    expect(error?.message).toBe('expected 2 to be 3 // Object.is equality');
    const context = { file: report.file, rootDir: RECORDED_PROJECT, secrets: undefined };
    expect(toFailureDetails(failed.failure, context)).toMatchObject({
      message: 'expected 2 to be 3 // Object.is equality',
      location: 'cart.test.js:12:19',
      attempts: 1,
    });
    expect(report.tests.filter((test) => test.status !== 'failed').every((test) => !test.failure)).toBe(true);
  });

  it('hands core what failed a file outside its tests, for its (file failed to run) result', () => {
    const report = mapTestModule(moduleNamed(run.modules, 'import-throws.test.js'));
    const context = { file: report.file, rootDir: RECORDED_PROJECT, secrets: undefined };
    expect(toFailureDetails(report.failure, context)).toMatchObject({
      stack: expect.stringContaining('this file throws while it is imported'),
      location: 'import-throws.test.js:1:7',
    });
  });

  it('fails the tests a failed beforeAll kept from running, and keeps a skipped one skipped', () => {
    const module = moduleNamed(run.modules, 'setup-fails.test.js');
    // Vitest itself calls them skipped.
    expect([...module.children.allTests()].map((test) => test.result().state)).toEqual([
      'skipped',
      'skipped',
      'passed',
    ]);
    expect(statuses(module)).toEqual([
      ['database > reads a row', 'failed'],
      ['database > is skipped on purpose', 'skipped'],
      ['runs outside the failing block', 'passed'],
    ]);
  });

  it('fails the file when it throws while imported (no tests) or in an afterAll (its test passed)', () => {
    expect(mapTestModule(moduleNamed(run.modules, 'import-throws.test.js'))).toMatchObject({
      tests: [],
      failedOutsideTests: true,
    });
    expect(mapTestModule(moduleNamed(run.modules, 'teardown-fails.test.js'))).toMatchObject({
      tests: [{ titles: ['passes before the teardown'], status: 'passed' }],
      failedOutsideTests: true,
    });
  });

  it('says a file that passed did not fail outside its tests', () => {
    expect(mapTestModule(moduleNamed(run.modules, 'unfinished.test.js')).failedOutsideTests).toBe(false);
  });

  it('takes only the tests that ended from a file still running, and says nothing about the file', () => {
    expect(run.unfinished).toBeDefined();
    const report = mapTestModule(run.unfinished!, { unfinished: true });
    expect(report.tests.map(({ titles, status }) => [titles.join(' > '), status])).toEqual([
      ['ends first', 'passed'],
    ]);
    expect(report.failedOutsideTests).toBe(false);
  });
});

describe(`errorsOutsideTests on Vitest ${run.version}'s recorded errors`, () => {
  it('pins the error a timer threw after its test passed to the file it ran in, as what failed it', () => {
    const late = run.unhandledErrors.find(
      (error) => error.message === 'thrown by a timer after its test passed',
    );
    expect(late).toBeDefined();
    // A file in the module list ended; the reporter asks the same of each scheduled one.
    const ended = new Set(
      run.modules.filter((module) => module.state() !== 'pending').map((module) => module.moduleId),
    );
    const scheduled = run.specifications.map(scheduledFile);
    const outcome = errorsOutsideTests(
      { scheduled, mine: scheduled, finished: ({ file }) => ended.has(file), reason: run.reason },
      run.unhandledErrors,
    );
    expect(outcome).toEqual({
      failedFiles: [
        {
          file: path.join(RECORDED_PROJECT, 'late-error.test.js'),
          project: { name: undefined, root: RECORDED_PROJECT },
          errors: [late],
        },
      ],
      runErrors: [],
    });
    const file = path.join(RECORDED_PROJECT, 'late-error.test.js');
    expect(
      toFailureDetails({ errors: [late] }, { file, rootDir: RECORDED_PROJECT, secrets: undefined }),
    ).toMatchObject({
      message: 'thrown by a timer after its test passed',
      location: 'late-error.test.js:6:11',
    });
  });

  it('says nothing of the file itself: its tests passed', () => {
    expect(statuses(moduleNamed(run.modules, 'late-error.test.js'))).toEqual([
      ['passes, and leaves a timer that throws', 'passed'],
      ['waits for the timer', 'passed'],
    ]);
    expect(mapTestModule(moduleNamed(run.modules, 'late-error.test.js')).failedOutsideTests).toBe(false);
  });
});

describe(`mapTestModule on Vitest ${merged.version}'s objects from merged blob reports`, () => {
  it('names and ends every file as the run itself did, the beforeAll case aside', () => {
    for (const module of merged.modules) {
      const file = path.relative(RECORDED_PROJECT, module.moduleId);
      if (file === 'setup-fails.test.js') continue;
      const fromRun = mapTestModule(moduleNamed(run.modules, file));
      const fromBlob = mapTestModule(module, { merged: true });
      expect({
        ...fromBlob,
        tests: fromBlob.tests.map(({ titles, status }) => ({ titles, status })),
      }).toEqual({
        ...fromRun,
        tests: fromRun.tests.map(({ titles, status }) => ({ titles, status })),
      });
    }
  });

  it('fails every test under a failed beforeAll: a blob no longer tells a skipped one apart', () => {
    const module = moduleNamed(merged.modules, 'setup-fails.test.js');
    // The blob holds the tests as the run ended: all under the block set to mode 'skip'.
    expect([...module.children.allTests()].map((test) => test.options.mode)).toEqual(['skip', 'skip', 'run']);
    expect(statuses(module, { merged: true })).toEqual([
      ['database > reads a row', 'failed'],
      ['database > is skipped on purpose', 'failed'],
      ['runs outside the failing block', 'passed'],
    ]);
  });
});
