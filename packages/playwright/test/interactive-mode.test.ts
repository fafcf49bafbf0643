import { describe, expect, it } from 'vitest';
import { interactiveMode } from '../src/interactive-mode.js';

const cli = (...args: string[]) => [
  '/usr/bin/node',
  '/project/node_modules/@playwright/test/cli.js',
  ...args,
];

describe('interactiveMode', () => {
  it.each([
    [['test'], {}, undefined],
    [['test', '--shard=1/2', '--project', 'chromium'], {}, undefined],
    [['test', '--ui'], {}, 'ui'],
    [['test', '--ui-port=0'], {}, 'ui'],
    [['test', '--ui-host', '0.0.0.0'], {}, 'ui'],
    [['test', '--debug'], {}, 'debug'],
    [['test', '--debug=cli'], {}, 'debug'],
    [['test'], { PWDEBUG: '1' }, 'debug'],
    [['test'], { PWDEBUG: 'console' }, 'debug'],
    [['test'], { PWDEBUG: '0' }, undefined],
    [['test'], { PWTEST_WATCH: '1' }, 'watch'],
    [['test-server', '-c', 'playwright.config.ts'], {}, 'test-server'],
  ] as const)('%j with %j is %s', (args, env, expected) => {
    expect(interactiveMode(cli(...args), env)).toBe(expected);
  });

  it('ignores what follows `--`: those arguments belong to the tests', () => {
    expect(interactiveMode(cli('test', '--', '--ui', '--debug'), {})).toBeUndefined();
  });

  it('takes a test filter named like a command for a filter, not a command', () => {
    expect(interactiveMode(cli('test', 'test-server'), {})).toBeUndefined();
  });

  it('does not take an option that merely starts like one of its own', () => {
    expect(interactiveMode(cli('test', '--uid=3', '--debugger'), {})).toBeUndefined();
  });
});
