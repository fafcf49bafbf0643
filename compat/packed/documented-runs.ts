import path from 'node:path';
import {
  closedPortUrl,
  jsonFile as json,
  type TestServer,
  testcafeBrowserMissing,
  writeFiles,
} from '@testrun/test-utils';
import { expect } from 'vitest';
import { docBlock } from '../../test/doc-blocks.js';
import { bin, CONSUMER_NAME, consumerDir } from './consumer.js';

// The tables of compat/packed/: every documented way to configure or run a reporter, and the
// ways quarantine must not pass a build, each a row the tests run.
//
// The documented runs: each block of README.md and the package READMEs that configures or
// runs a reporter (marked `<!-- tested: … -->`, read by test/doc-blocks.ts), written as it
// is into a folder of its own in the consumer project beside one test file, and run there
// the way its page says.

export interface DocumentedRun {
  /** The folder in the consumer project: the block's name, or a variant of it. */
  dir: string;
  framework:
    | 'vitest'
    | 'jest'
    | 'playwright'
    | 'mocha'
    | 'node-test'
    | 'cucumber'
    | 'jasmine'
    | 'newman'
    | 'testcafe';
  /** The folder's files: the block, named as its page names it, and the tests. */
  files: (context: RunContext) => Record<string, string>;
  /** Program and arguments, run in the folder. */
  command: () => string[];
  project: string;
  /** The test file's name as stored. */
  suite: string;
  /** What `it.todo` is stored as (the node:test module's statusMap maps it). */
  todo?: 'skipped' | 'todo';
  /** Lower-cases the test names, as the Mocha module's mapResult does. */
  lowerCase?: boolean;
  /** The framework's exit code for a run with a failed test: 1, Jasmine's 3. */
  failedExitCode?: number;
  /** Its tests have no nested blocks (TestCafe: fixture > test): `Math > over ten`. */
  flat?: boolean;
  /** It drives a browser (TestCafe): skipped, saying why, where Chromium is missing. */
  browser?: boolean;
  /** Run under `testrun run`, as the README's CI section says, with a CI summary to read back. */
  underTestrunRun?: boolean;
  /**
   * The server quarantines `Math > fails on purpose` in the run's project before the run
   * (docs/quarantine.md): the build passes, under `testrun run` (every runner), or in the
   * process (Playwright, whose onEnd decides its status; Mocha, whose exit code is what its
   * reporter's done hands it).
   */
  quarantined?: boolean;
}

const MOCHA_CJS_TESTS = { 'test/math.test.js': mathTest('mocha-cjs') };
/** A package whose package.json says `"type": "module"`, where `.mocharc.js` would fail. */
const MODULE_PACKAGE_JSON = json({ name: `${CONSUMER_NAME}-esm`, private: true, type: 'module' });
const MODULE_PACKAGE = { 'package.json': MODULE_PACKAGE_JSON, 'test/math.test.js': mathTest('mocha-esm') };

/** The README's Jest block, once its first line is seen to say `saying`: another name it may be given. */
function readmeJestConfig(saying: string): string {
  const block = docBlock('readme-jest-config');
  expect(block.split('\n')[0]).toContain(saying);
  return block;
}

/** Jasmine's spec file, and the config `jasmine init` writes (helpers in spec/helpers), where a block is only a helper. */
const JASMINE_SPEC = { 'spec/math.spec.js': mathTest('jasmine') };
const JASMINE_INIT_CONFIG = json({
  spec_dir: 'spec',
  spec_files: ['**/*[sS]pec.?(m)js'],
  helpers: ['helpers/**/*.?(m)js'],
});
const JASMINE_RUNS: DocumentedRun[] = [
  ...(['readme-jasmine-json', 'jasmine-readme-json'] as const).map(
    (block): DocumentedRun => ({
      dir: block,
      framework: 'jasmine',
      files: () => ({ ...JASMINE_SPEC, 'spec/support/jasmine.json': docBlock(block) }),
      command: () => [bin('jasmine')],
      project: CONSUMER_NAME,
      suite: 'spec/math.spec.js',
      failedExitCode: 3,
    }),
  ),
  {
    dir: 'jasmine-readme-helper',
    framework: 'jasmine',
    files: () => ({
      ...JASMINE_SPEC,
      'spec/support/jasmine.json': JASMINE_INIT_CONFIG,
      'spec/helpers/testrun.mjs': docBlock('jasmine-readme-helper'),
    }),
    command: () => [bin('jasmine')],
    project: 'api',
    suite: 'spec/math.spec.js',
    lowerCase: true,
    failedExitCode: 3,
  },
  {
    dir: 'jasmine-readme-parallel-config',
    framework: 'jasmine',
    files: () => ({
      ...JASMINE_SPEC,
      'spec/support/jasmine.mjs': docBlock('jasmine-readme-parallel-config'),
    }),
    command: () => [bin('jasmine'), '--parallel=2'],
    project: CONSUMER_NAME,
    suite: 'spec/math.spec.js',
    failedExitCode: 3,
  },
];

/** The math tests as TestCafe's: a fixture, no nested blocks, no todo (a skipped test). */
const TESTCAFE_MATH = {
  'tests/math.test.js': `fixture('Math').page('about:blank');

test('adds', async (t) => {
  await t.expect(1 + 1).eql(2);
});
test('over ten', async (t) => {
  await t.expect(9 + 1).eql(10);
});
test('fails on purpose', async (t) => {
  await t.expect(1 + 1).eql(3);
});
test.skip('is skipped', async () => {});
test.skip('is to do', async () => {});
`,
};

const TESTCAFE_RUNS: DocumentedRun[] = [
  {
    dir: 'readme-testcafe-command',
    framework: 'testcafe',
    files: () => TESTCAFE_MATH,
    command: () => ['sh', '-c', docBlock('readme-testcafe-command')],
    project: CONSUMER_NAME,
    suite: 'tests/math.test.js',
    flat: true,
    browser: true,
  },
  {
    dir: 'testcafe-readme-testcaferc',
    framework: 'testcafe',
    files: () => ({ ...TESTCAFE_MATH, '.testcaferc.json': docBlock('testcafe-readme-testcaferc') }),
    command: () => [bin('testcafe'), 'chromium:headless', 'tests/'],
    project: CONSUMER_NAME,
    suite: 'tests/math.test.js',
    flat: true,
    browser: true,
  },
  {
    dir: 'testcafe-readme-api',
    framework: 'testcafe',
    files: () => ({ ...TESTCAFE_MATH, ...asWritten('testcafe-readme-api', 'run-tests.mjs') }),
    command: () => commandIn('testcafe-readme-api', 'then:'),
    project: 'e2e',
    suite: 'tests/math.test.js',
    flat: true,
    browser: true,
  },
];

export const DOCUMENTED_RUNS: DocumentedRun[] = [
  {
    dir: 'readme-vitest-config',
    framework: 'vitest',
    files: () => ({
      ...asWritten('readme-vitest-config', 'vitest.config.ts'),
      'math.test.mjs': mathTest('vitest'),
    }),
    command: () => [bin('vitest'), 'run'],
    project: 'web',
    suite: 'math.test.mjs',
    underTestrunRun: true,
    quarantined: true,
  },
  {
    dir: 'vitest-readme-config',
    framework: 'vitest',
    files: () => ({
      ...asWritten('vitest-readme-config', 'vitest.config.ts'),
      'math.test.mjs': mathTest('vitest'),
    }),
    command: () => [bin('vitest'), 'run'],
    project: CONSUMER_NAME,
    suite: 'math.test.mjs',
  },
  {
    dir: 'readme-jest-config',
    framework: 'jest',
    files: () => ({ ...asWritten('readme-jest-config', 'jest.config.js'), 'math.test.js': mathTest('jest') }),
    command: () => [bin('jest')],
    project: 'api',
    suite: 'math.test.js',
    underTestrunRun: true,
    quarantined: true,
  },
  {
    dir: 'readme-jest-config-mjs',
    framework: 'jest',
    files: () => {
      const commonJs = readmeJestConfig('jest.config.mjs works the same with `export default`');
      expect(commonJs.match(/module\.exports = /g)).toHaveLength(1);
      return {
        'jest.config.mjs': commonJs.replace('module.exports = ', 'export default '),
        'math.test.js': mathTest('jest'),
      };
    },
    command: () => [bin('jest')],
    project: 'api',
    suite: 'math.test.js',
  },
  {
    dir: 'readme-jest-config-cjs',
    framework: 'jest',
    files: () => ({
      'package.json': MODULE_PACKAGE_JSON,
      'jest.config.cjs': readmeJestConfig('jest.config.cjs in a "type": "module" package'),
      'math.test.js': mathTest('jest'),
    }),
    command: () => [bin('jest')],
    project: 'api',
    suite: 'math.test.js',
  },
  {
    dir: 'jest-readme-config',
    framework: 'jest',
    files: () => ({ ...asWritten('jest-readme-config', 'jest.config.js'), 'math.test.js': mathTest('jest') }),
    command: () => [bin('jest')],
    project: CONSUMER_NAME,
    suite: 'math.test.js',
  },
  ...(['readme-playwright-config', 'playwright-readme-config'] as const).map(
    (block): DocumentedRun => ({
      dir: block,
      framework: 'playwright',
      files: () => ({ ...asWritten(block, 'playwright.config.ts'), 'math.spec.ts': mathTest('playwright') }),
      command: () => [
        bin('playwright'),
        'test',
        '--output',
        path.join(consumerDir(), '..', `playwright-output-${block}`),
      ],
      project: block === 'readme-playwright-config' ? 'e2e' : CONSUMER_NAME,
      // Playwright names files from its testDir, the config's folder.
      suite: 'math.spec.ts',
      underTestrunRun: block === 'readme-playwright-config',
      // Under testrun run, and alone, where Playwright takes its status from the reporter.
      quarantined: true,
    }),
  ),
  ...(['readme-mocharc', 'mocha-readme-mocharc'] as const).map(
    (block): DocumentedRun => ({
      dir: block,
      framework: 'mocha',
      files: () => ({ ...MODULE_PACKAGE, ...asWritten(block, '.mocharc.cjs') }),
      command: () => [bin('mocha')],
      project: 'api',
      suite: 'test/math.test.js',
      underTestrunRun: block === 'readme-mocharc',
      // Under testrun run, and alone, where Mocha takes its exit code from the reporter's done.
      quarantined: true,
    }),
  ),
  {
    // The README's other way: "or on the command line: npx mocha --reporter @testrun/mocha".
    dir: 'readme-mocharc-command-line',
    framework: 'mocha',
    files: () => MOCHA_CJS_TESTS,
    command: () => commandIn('readme-mocharc', 'on the command line:'),
    project: CONSUMER_NAME,
    suite: 'test/math.test.js',
  },
  {
    dir: 'mocha-readme-reporter-module',
    framework: 'mocha',
    files: () => ({
      ...asWritten('mocha-readme-reporter-module', 'testrun-reporter.cjs'),
      ...MOCHA_CJS_TESTS,
    }),
    command: () => commandIn('mocha-readme-reporter-module', 'then:'),
    project: 'api',
    suite: 'test/math.test.js',
    lowerCase: true,
  },
  {
    dir: 'readme-node-test-command',
    framework: 'node-test',
    files: () => ({ 'math.test.js': mathTest('node-test') }),
    command: () => ['sh', '-c', docBlock('readme-node-test-command')],
    project: CONSUMER_NAME,
    suite: 'math.test.js',
    underTestrunRun: true,
    quarantined: true,
  },
  {
    dir: 'node-test-readme-scripts',
    framework: 'node-test',
    files: () => ({
      'package.json': json({
        name: `${CONSUMER_NAME}-scripts`,
        private: true,
        ...(JSON.parse(docBlock('node-test-readme-scripts')) as object),
      }),
      'math.test.js': mathTest('node-test'),
    }),
    command: () => ['npm', 'test'],
    project: `${CONSUMER_NAME}-scripts`,
    suite: 'math.test.js',
  },
  {
    dir: 'node-test-readme-reporter-module',
    framework: 'node-test',
    files: () => ({
      ...asWritten('node-test-readme-reporter-module', 'testrun-reporter.mjs'),
      'math.test.js': mathTest('node-test'),
    }),
    command: () => commandIn('node-test-readme-reporter-module', 'then:'),
    project: 'api',
    suite: 'math.test.js',
    todo: 'todo',
  },
  ...(['readme-cucumber-profile', 'cucumber-readme-profile'] as const).map(
    (block): DocumentedRun => ({
      dir: block,
      framework: 'cucumber',
      files: () => ({ ...asWritten(block, 'cucumber.cjs'), ...CUCUMBER_MATH }),
      command: () => [bin('cucumber-js')],
      project: block === 'readme-cucumber-profile' ? 'api' : 'checkout',
      suite: 'features/math.feature',
    }),
  ),
  {
    // The README's other way: "or on the command line: npx cucumber-js --format @testrun/cucumber".
    dir: 'readme-cucumber-profile-command-line',
    framework: 'cucumber',
    files: () => CUCUMBER_MATH,
    command: () => commandIn('readme-cucumber-profile', 'on the command line:'),
    project: CONSUMER_NAME,
    suite: 'features/math.feature',
  },
  {
    dir: 'cucumber-readme-formatter-module',
    framework: 'cucumber',
    files: () => ({
      ...asWritten('cucumber-readme-formatter-module', 'testrun-formatter.mjs'),
      ...CUCUMBER_MATH,
    }),
    command: () => commandIn('cucumber-readme-formatter-module', 'then:'),
    project: 'checkout',
    suite: 'features/math.feature',
    lowerCase: true,
  },
  ...JASMINE_RUNS,
  {
    dir: 'readme-newman-command',
    framework: 'newman',
    files: ({ collectionUrl }) => ({ 'collection.json': mathCollection(collectionUrl) }),
    command: () => ['sh', '-c', docBlock('readme-newman-command')],
    project: CONSUMER_NAME,
    suite: 'math',
  },
  {
    dir: 'newman-readme-run',
    framework: 'newman',
    files: ({ collectionUrl }) => ({
      ...asWritten('newman-readme-run', 'run-collection.cjs'),
      'collection.json': mathCollection(collectionUrl),
    }),
    command: () => commandIn('newman-readme-run', 'then:'),
    project: 'api',
    suite: 'math',
  },
  ...TESTCAFE_RUNS,
];

export const browserMissing = testcafeBrowserMissing();
if (browserMissing) console.warn(`skipping the packed TestCafe runs: ${browserMissing}`);
/** The documented runs this machine can run: those that drive a browser need Chromium. */
export const RUNNABLE_RUNS = DOCUMENTED_RUNS.filter(
  (documentedRun) => !(documentedRun.browser && browserMissing),
);

/** The documented run written in `dir`. */
export function documented(dir: string): DocumentedRun {
  return DOCUMENTED_RUNS.find((documentedRun) => documentedRun.dir === dir)!;
}

/** Quarantines `Math > fails on purpose` of the run's file in `project` (default: the run's), as `testrun quarantine add` does. */
export async function quarantine(
  server: TestServer,
  documentedRun: DocumentedRun,
  project = documentedRun.project,
) {
  const answer = await fetch(`${server.url}/api/v1/quarantines`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      project,
      testSuite: documentedRun.suite,
      testCase: 'Math > fails on purpose',
      reason: 'fails on purpose',
      by: 'packed-install',
    }),
  });
  expect(answer.status, await answer.text()).toBe(201);
}

export interface QuarantineVariation {
  documentedRun: DocumentedRun;
  what: string;
  /** Written beside the documented files, in the variant's folder. */
  extraFiles?: Record<string, string>;
  /** Done to the server after the quarantine; what it answers is added to the environment. */
  prepare?: (server: TestServer) => Promise<Record<string, string> | undefined>;
  /** The line that says why the build fails. */
  why: RegExp;
  ended?: 'not created';
}

/**
 * One way for each of four runners that quarantine must not pass a build: together, every way
 * the issue names. A failure quarantined in another project only is the run's list's and the
 * line's (packages/server/test/quarantine.test.ts, packages/core/test/quarantine/watch.test.ts).
 */
export const QUARANTINE_VARIATIONS: QuarantineVariation[] = [
  {
    documentedRun: documented('readme-vitest-config'),
    what: 'one more failing test that is not quarantined',
    extraFiles: {
      'also-fails.test.mjs':
        "import { expect, it } from 'vitest';\nit('also fails', () => expect(1).toBe(2));\n",
    },
    why: /^testrun run: failed: 1 failure is not a quarantined test's: also-fails\.test\.mjs › also fails \(not quarantined in project "web"\); 1 quarantined test failed too/m,
  },
  {
    documentedRun: documented('readme-jest-config'),
    what: 'a file that fails to load',
    extraFiles: { 'broken.test.js': "throw new Error('this file cannot load');\n" },
    why: /^testrun run: failed: 1 failure is not a quarantined test's: broken\.test\.js › \(file failed to run\) \(a file that failed to run is never quarantined\); 1 quarantined test failed too/m,
  },
  {
    documentedRun: documented('readme-playwright-config'),
    what: 'the quarantine expired',
    prepare: async (server) => {
      await server.server.store.write((tx) =>
        tx.tx.query("UPDATE quarantines SET expires_at = '2026-01-02T00:00:00.000Z'"),
      );
      return undefined;
    },
    why: /^testrun run: failed: 1 failure is not a quarantined test's: math\.spec\.ts › Math > fails on purpose \(its quarantine expired on 2026-01-02\)/m,
  },
  {
    documentedRun: documented('readme-node-test-command'),
    what: 'the service down at run start',
    prepare: async () => ({ TESTRUN_BASE_URL: await closedPortUrl() }),
    why: /^testrun run: the run could not be created \(.*\): the command runs as it would without testrun run \(nothing is quarantined\)/m,
    ended: 'not created',
  },
];

/**
 * The math tests as a Postman collection named `math`, its requests in a folder `Math`, sent to
 * the collection server the suite starts (Newman has no todo: `is to do` is a skipped assertion,
 * stored as todo is by default, skipped).
 */
function mathCollection(collectionUrl: string): string {
  const request = (name: string, test: string) => ({
    name,
    request: { method: 'GET', url: `${collectionUrl}/health` },
    event: [{ listen: 'test', script: { exec: [test] } }],
  });
  return json({
    info: { name: 'math', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
    item: [
      {
        name: 'Math',
        item: [
          request('adds', "pm.test('1 + 1 is 2', () => pm.expect(1 + 1).to.equal(2));"),
          {
            name: 'carries',
            item: [request('over ten', "pm.test('9 + 1 is 10', () => pm.expect(9 + 1).to.equal(10));")],
          },
          request('fails on purpose', "pm.test('1 + 1 is 3', () => pm.expect(1 + 1).to.equal(3));"),
          request('is skipped', "pm.test.skip('1 + 1 is 2', () => {});"),
          request('is to do', "pm.test.skip('is written later', () => {});"),
        ],
      },
    ],
  });
}

/**
 * The math tests in Gherkin, storing what mathTest's files store: Cucumber has no skip of its
 * own (a Before hook returns 'skipped') and no todo (a scenario without steps is skipped).
 */
const CUCUMBER_MATH = {
  'features/math.feature': `Feature: Math

  Scenario: adds
    Then 1 + 1 is 2

  Scenario: fails on purpose
    Then 1 + 1 is 3

  @skip
  Scenario: is skipped
    Then 1 + 1 is 2

  Scenario: is to do

  Rule: carries

    Scenario: over ten
      Then 9 + 1 is 10
`,
  'features/support/steps.js': `const assert = require('node:assert/strict');
const { Before, Then } = require('@cucumber/cucumber');

Before({ tags: '@skip' }, () => 'skipped');
Then('{int} + {int} is {int}', (a, b, sum) => assert.equal(a + b, sum));
`,
};

/** The block as its page shows it, as `file`; a block whose first line names its file must name this one. */
function asWritten(block: string, file: string): Record<string, string> {
  const code = docBlock(block);
  const named = /^\/\/ ([\w.-]+\.\w+)\b/.exec(code)?.[1];
  if (named !== undefined) expect(named, `the file ${block} names on its first line`).toBe(file);
  return { [file]: code };
}

/**
 * The command a block's first line gives after `label` (`// x.cjs, then: npx mocha --reporter ./x.cjs`),
 * as program and arguments: `npx` and a closing `…` dropped, the program taken from the
 * project's bins (Node itself for `node`).
 */
function commandIn(block: string, label: string): string[] {
  const first = docBlock(block).split('\n')[0]!;
  const at = first.indexOf(label);
  expect(at, `the first line of ${block} gives a command after "${label}"`).toBeGreaterThan(-1);
  const words = first
    .slice(at + label.length)
    .trim()
    .split(/\s+/)
    .filter((word) => word !== '…');
  if (words[0] === 'npx') words.shift();
  const [program, ...args] = words;
  return [program === 'node' ? process.execPath : bin(program!), ...args];
}

/** The five tests of every test file: one passes, one nested passes, one fails, one skipped, one todo. */
function mathTest(
  kind: 'vitest' | 'jest' | 'playwright' | 'mocha-cjs' | 'mocha-esm' | 'node-test' | 'jasmine',
): string {
  // Mocha and the node:test file bring their own expect; Mocha and Jasmine have no todo: a
  // pending test without a function is theirs; Playwright's fixme is its "not written yet".
  const assertExpect =
    'const expect = (actual) => ({ toBe: (expected) => assert.equal(actual, expected) });\n';
  const imports = {
    vitest: "import { describe, expect, it } from 'vitest';\n",
    jest: '',
    playwright: "import { expect, test } from '@playwright/test';\n",
    'mocha-cjs': `const assert = require('node:assert/strict');\n${assertExpect}`,
    'mocha-esm': `import assert from 'node:assert/strict';\n${assertExpect}`,
    'node-test': `const assert = require('node:assert/strict');\nconst { describe, it } = require('node:test');\n${assertExpect}`,
    jasmine: '',
  }[kind];
  const [describe, it] = kind === 'playwright' ? ['test.describe', 'test'] : ['describe', 'it'];
  const todo =
    kind === 'playwright'
      ? "test.fixme('is to do', () => {})"
      : kind.startsWith('mocha') || kind === 'jasmine'
        ? "it('is to do')"
        : "it.todo('is to do')";
  return `${imports}
${describe}('Math', () => {
  ${it}('adds', () => {
    expect(1 + 1).toBe(2);
  });
  ${describe}('carries', () => {
    ${it}('over ten', () => {
      expect(9 + 1).toBe(10);
    });
  });
  ${it}('fails on purpose', () => {
    expect(1 + 1).toBe(3);
  });
  ${kind === 'jasmine' ? 'xit' : `${it}.skip`}('is skipped', () => {});
  ${todo};
});
`;
}

/** What every documented run stores for its math file. */
export function mathResults({ suite, todo = 'skipped', lowerCase = false, flat = false }: DocumentedRun) {
  const name = (testCase: string) => (lowerCase ? testCase.toLowerCase() : testCase);
  return [
    { testSuite: suite, testCase: name('Math > adds'), status: 'passed' },
    {
      testSuite: suite,
      testCase: name(flat ? 'Math > over ten' : 'Math > carries > over ten'),
      status: 'passed',
    },
    { testSuite: suite, testCase: name('Math > fails on purpose'), status: 'failed' },
    { testSuite: suite, testCase: name('Math > is skipped'), status: 'skipped' },
    { testSuite: suite, testCase: name('Math > is to do'), status: todo },
  ].sort(byCase);
}

/** What a documented run's files need from the test that writes them. */
export interface RunContext {
  /** Where the Newman collections send their requests (startCollectionServer). */
  collectionUrl: string;
}

/** Writes `documentedRun`'s files into `dir` (default: its folder in the installed project), and answers the folder. */
export function writeDocumentedRun(
  documentedRun: DocumentedRun,
  context: RunContext,
  dir = path.join(consumerDir(), documentedRun.dir),
): string {
  writeFiles(dir, documentedRun.files(context));
  return dir;
}

export function byCase(a: { testCase: string }, b: { testCase: string }): number {
  return a.testCase < b.testCase ? -1 : a.testCase > b.testCase ? 1 : 0;
}
