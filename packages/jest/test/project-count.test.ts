import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '@jest/reporters';
import { tempDir } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';
import { configuredProjectCount } from '../src/project-count.js';

// What projectLabel 'auto' counts. Real runs with --selectProjects are in
// e2e/identity-across-projects.test.ts; here, what a glob may leave in `projects`.

const count = (projects: unknown[] | undefined) =>
  configuredProjectCount({ projects } as unknown as Config.GlobalConfig);

describe('configuredProjectCount', () => {
  it('is 1 without projects', () => {
    expect(count(undefined)).toBe(1);
    expect(count([])).toBe(1);
  });

  it('counts inline projects and project folders', () => {
    const dir = tempDir('testrun-projects-');
    expect(count([{ displayName: 'node' }, dir])).toBe(2);
  });

  it('leaves out a file a glob matched that is not a config, as Jest does', () => {
    const dir = tempDir('testrun-projects-');
    const readme = path.join(dir, 'README.md');
    const config = path.join(dir, 'jest.config.cjs');
    fs.writeFileSync(readme, '');
    fs.writeFileSync(config, '');
    expect(count([readme, config, path.join(dir, 'a')])).toBe(2);
  });
});
