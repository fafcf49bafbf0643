import { describe, expect, it } from 'vitest';
import { blobDirectory } from '../src/merged-projects.js';

const cli = (...args: string[]) => [
  '/usr/bin/node',
  '/project/node_modules/@playwright/test/cli.js',
  ...args,
];

describe('blobDirectory', () => {
  it.each([
    [['merge-reports', 'all-blob-reports'], '/work/all-blob-reports'],
    [['merge-reports', '--reporter', '@testrun/playwright', './blobs'], '/work/blobs'],
    [['merge-reports', '--reporter=html,@testrun/playwright', '/ci/blobs'], '/ci/blobs'],
    [['merge-reports', '-c', 'merge.config.ts', 'blobs'], '/work/blobs'],
    [['merge-reports', '--config', 'merge.config.ts', 'blobs'], '/work/blobs'],
    [['merge-reports', 'blobs', '--reporter', 'list'], '/work/blobs'],
  ] as const)('%j from /work is %s', (args, expected) => {
    expect(blobDirectory(cli(...args), '/work')).toBe(expected);
  });

  it('is the working directory when the command names no folder, as Playwright takes it', () => {
    expect(blobDirectory(cli('merge-reports', '--reporter', 'list'), '/work')).toBe('/work');
  });

  it('refuses a command line that is not merge-reports', () => {
    expect(() => blobDirectory(cli('test', 'blobs'), '/work')).toThrow('no merge-reports command');
  });
});
