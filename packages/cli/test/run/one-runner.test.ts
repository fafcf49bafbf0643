import { describe, expect, it } from 'vitest';
import { notOneRunner, wordsOf } from '../../src/run/one-runner.js';

// Whether testrun run's command is one test runner, whose exit code is then the runner's
// (docs/design/quarantine.md): only such a command may pass for quarantined failures alone.

const scripts: Record<string, string> = {
  test: 'vitest run',
  'test:e2e': 'playwright test --project=chromium',
  lint: 'eslint .',
  both: 'vitest run && eslint .',
  node: 'node --test --test-reporter=@testrun/node-test',
  wrapped: 'npm run test',
  hooked: 'jest',
  prehooked: 'echo before',
};
const read = () => scripts;
const check = (command: string[]) => notOneRunner(command, '/project', read);

describe('one test runner', () => {
  it.each([
    [['npx', 'vitest', 'run']],
    [['npx', '--yes', 'jest', '--ci']],
    [['node_modules/.bin/mocha']],
    [['pnpm', 'exec', 'playwright', 'test']],
    [['pnpm', 'vitest', 'run']],
    [['yarn', 'jest']],
    [['npm', 'exec', '--', 'cucumber-js']],
    [['node', '--test', '--test-reporter=@testrun/node-test']],
    [['node', 'node_modules/vitest/vitest.mjs', 'run']],
    [['node', '/repo/node_modules/@cucumber/cucumber/bin/cucumber.js']],
    [['env', 'CI=1', 'npx', 'wdio', 'run', 'wdio.conf.js']],
    [['sh', '-c', 'CI=1 npx jasmine --config=spec/support/jasmine.json']],
    [['sh', '-c', "node --test --test-reporter='@testrun/node-test'"]],
    [
      [
        'sh',
        '-c',
        'node --test \\\n  --test-reporter=@testrun/node-test --test-reporter-destination=stdout\n',
      ],
    ],
    [['npm', 'test']],
    [['npm', 't']],
    [['npm', 'run', 'test:e2e']],
    [['pnpm', 'run', 'node']],
    [['npm', 'run', 'wrapped']],
    [['testcafe', 'chromium:headless', 'tests/']],
    [['npx', 'newman', 'run', 'collection.json']],
  ])('%j is one', (command) => {
    expect(check(command)).toBeUndefined();
  });

  it.each([
    [['sh', '-c', 'npx vitest run; npx eslint .'], 'sh -c runs more than one command'],
    [['bash', '-c', 'vitest run && eslint .'], 'bash -c runs more than one command'],
    [['sh', '-c', 'vitest run | tee out.txt'], 'sh -c runs more than one command'],
    [['sh', 'ci.sh'], 'sh runs a script file, which may run more than one command'],
    [['npm', 'run', 'both'], 'the script "both" runs more than one command'],
    [['npm', 'run', 'lint'], 'eslint is not a test runner testrun reports for'],
    [['npm', 'run', 'missing'], 'npm run runs no script of package.json that testrun can read'],
    [['make', 'test'], 'make is not a test runner testrun reports for'],
    [['pytest'], 'pytest is not a test runner testrun reports for'],
    [['node', 'scripts/test.js'], 'node runs a script that is not a test runner testrun reports for'],
    [[], 'it names no program'],
  ])('%j is not: %s', (command, why) => {
    expect(check(command)).toBe(why);
  });

  it('is not a script with a pre- or post-script beside it, which runs too', () => {
    expect(notOneRunner(['npm', 'test'], '/p', () => ({ test: 'jest', posttest: 'eslint .' }))).toBe(
      'the script "test" has a "posttest" script beside it',
    );
    expect(notOneRunner(['npm', 'run', 'hooked'], '/p', () => ({ hooked: 'jest', prehooked: 'x' }))).toBe(
      'the script "hooked" has a "prehooked" script beside it',
    );
  });

  it('reads a command line as a shell would, quotes and all, or not at all', () => {
    expect(wordsOf(`vitest run --reporter='a b' "c"`)).toEqual(['vitest', 'run', '--reporter=a b', 'c']);
    expect(wordsOf('vitest "unclosed')).toBeUndefined();
    expect(wordsOf('vitest run $(ls)')).toBeUndefined();
    expect(wordsOf('vitest "$(ls)"')).toBeUndefined();
    expect(wordsOf('node --test \\\n  --test-reporter=spec')).toEqual([
      'node',
      '--test',
      '--test-reporter=spec',
    ]);
    expect(wordsOf('mocha a\\ b.js')).toEqual(['mocha', 'a b.js']);
  });
});
