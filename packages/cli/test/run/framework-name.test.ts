import { describe, expect, it } from 'vitest';
import { frameworkOf } from '../../src/run/framework-name.js';

describe('the framework testrun run names its run with, when --framework does not say', () => {
  it.each([
    [['npx', 'vitest', 'run'], 'vitest'],
    [['pnpm', 'exec', 'jest', '--ci'], 'jest'],
    [['npx', 'playwright', 'test'], 'playwright'],
    [['./node_modules/.bin/mocha'], 'mocha'],
    [['node', '--test', '--test-reporter=@testrun/node-test'], 'node-test'],
    [['sh', '-c', 'pytest --junitxml=r.xml; npx @testrun/cli upload r.xml'], 'pytest'],
    [['npx', 'wdio', 'run', 'wdio.conf.ts'], 'webdriverio'],
    [['node', '/p/node_modules/@playwright/test/cli.js', 'test'], 'playwright'],
    [['make', 'test'], 'make'],
    [['sh', '-c', 'echo hi; exit 3'], 'command'],
  ])('%j is %s', (command, framework) => {
    expect(frameworkOf(command)).toBe(framework);
  });
});
