import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const requireFromHere = createRequire(import.meta.url);

/** Fixture projects shared by the adapters' tests; each runs under Vitest and under Jest. */
export const FIXTURES_DIR = fileURLToPath(new URL('../fixtures/', import.meta.url));
export const fixtures = {
  /** Every mapping case, with failures: both frameworks exit 1. */
  parity: path.join(FIXTURES_DIR, 'parity'),
  /** Two files, all passing apart from one skipped and one todo test. */
  passing: path.join(FIXTURES_DIR, 'passing'),
  /** Empty, 10 KB, multi-line, NUL and emoji names; NaN, negative, missing and infinite durations; a retried test. */
  oddNames: path.join(FIXTURES_DIR, 'odd-names'),
  /** Fast files and one last file that waits until their results are on the server. */
  streaming: path.join(FIXTURES_DIR, 'streaming'),
  /** A fast file, and a slow one still running when a test cancels the job. */
  cancelled: path.join(FIXTURES_DIR, 'cancelled'),
  /** Jest only: a file that fails at once and one still running when --bail ends the run. */
  bail: path.join(FIXTURES_DIR, 'bail'),
  /** Jest only: a passing file, then one whose test calls process.exit(). */
  exits: path.join(FIXTURES_DIR, 'exits'),
  /** Hand-written JUnit XML reports for `testrun upload`: pytest.xml, surefire-reports/TEST-*.xml. */
  junit: path.join(FIXTURES_DIR, 'junit'),
  /** CTRF JSON reports for `testrun upload`, as jest-ctrf-json-reporter and playwright-ctrf-json-reporter write them. */
  ctrf: path.join(FIXTURES_DIR, 'ctrf'),
  /** Two packages with a src/index.test.js each, and a config for each layout: at the root, in scripts/, per package. */
  monorepo: path.join(FIXTURES_DIR, 'monorepo'),
  /** Vitest only: a file run as usual and type-checked, and a type-only file. */
  typecheck: path.join(FIXTURES_DIR, 'typecheck'),
  /** A passing file and one failure outside any test, picked with FIXTURE_CASE (see its cases.cjs). */
  outsideTests: path.join(FIXTURES_DIR, 'outside-tests'),
  /** Jest: one passing test beside the snapshot file of a removed test: `jest --ci` fails the run. */
  obsoleteSnapshots: path.join(FIXTURES_DIR, 'obsolete-snapshots'),
  /**
   * Mocha, Jest, node:test and Jasmine (spec/support/jasmine.json; without-reporter.json;
   * parallel.mjs for --parallel) alike, and Cucumber (cucumber.cjs, features/; `-p alone` without the formatter): a test
   * double real suites install and never undo (nock, MSW, stubs, fake timers, the
   * environment, the working directory), picked with FIXTURE_DOUBLE (see its doubles.cjs);
   * one test fails.
   */
  doubles: path.join(FIXTURES_DIR, 'doubles'),
} as const;

/**
 * Fixture projects for Mocha and node:test: the shared fixtures' tests in each one's own form
 * (node:assert instead of expect), storing the same results (see FRAMEWORKS).
 */
export const mochaFixtures = {
  passing: path.join(FIXTURES_DIR, 'mocha', 'passing'),
  /** ES modules; the other Mocha fixtures are CommonJS. */
  streaming: path.join(FIXTURES_DIR, 'mocha', 'streaming'),
  oddNames: path.join(FIXTURES_DIR, 'mocha', 'odd-names'),
  /** The shared parity fixture's tests, run with --parallel (MOCHA_PARITY_RESULTS). */
  parity: path.join(FIXTURES_DIR, 'mocha', 'parity'),
  cancelled: path.join(FIXTURES_DIR, 'mocha', 'cancelled'),
  /** Serial tests that do to the process what real suites do: stubbed built-ins, fake timers never restored, odd titles, every kind of skip. */
  sharedProcess: path.join(FIXTURES_DIR, 'mocha', 'shared-process'),
  /** A test left with `.only`: what --forbid-only refuses. */
  only: path.join(FIXTURES_DIR, 'mocha', 'only'),
  /** Passes, fails, then one more test: what --bail stops after the failure. */
  bail: path.join(FIXTURES_DIR, 'mocha', 'bail'),
} as const;

export const nodeTestFixtures = {
  passing: path.join(FIXTURES_DIR, 'node-test', 'passing'),
  streaming: path.join(FIXTURES_DIR, 'node-test', 'streaming'),
  oddNames: path.join(FIXTURES_DIR, 'node-test', 'odd-names'),
  /** The shared parity fixture's tests (NODE_TEST_PARITY_RESULTS). */
  parity: path.join(FIXTURES_DIR, 'node-test', 'parity'),
  cancelled: path.join(FIXTURES_DIR, 'node-test', 'cancelled'),
  /** Files under test/ that node:test reports as tests of their own (NODE_TEST_FILES_RESULTS). */
  files: path.join(FIXTURES_DIR, 'node-test', 'files'),
  /** One test marked `only` and one not: what --test-only runs. */
  only: path.join(FIXTURES_DIR, 'node-test', 'only'),
} as const;

/**
 * A fresh copy of `fixture` in a temp dir, for a test that edits its files. Its node_modules
 * links this repo's frameworks and reporters, so they resolve as they do from the original.
 */
export function copyFixture(fixture: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `testrun-${path.basename(fixture)}-`));
  fs.cpSync(fixture, dir, { recursive: true, filter: (source) => path.basename(source) !== 'node_modules' });
  linkFrameworks(dir);
  return dir;
}

/** Links this repo's frameworks and reporters into `dir`'s node_modules, so they resolve from there. */
export function linkFrameworks(dir: string): void {
  for (const name of [
    'vitest',
    'jest',
    '@playwright/test',
    '@testrun/vitest',
    '@testrun/jest',
    '@testrun/playwright',
    'mocha',
    '@testrun/mocha',
    '@testrun/node-test',
  ]) {
    const link = path.join(dir, 'node_modules', name);
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(path.dirname(requireFromHere.resolve(`${name}/package.json`)), link, 'dir');
  }
}

/** Fixture configs read reporter options from this variable, so a test can set them per run. */
export const REPORTER_OPTIONS_VAR = 'FIXTURE_REPORTER_OPTIONS';
