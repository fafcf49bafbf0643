import type { FullConfig, FullProject, WorkerInfo } from '@playwright/test/reporter';
import { describe, expect, it } from 'vitest';
import { errorOrigin, runsFile } from '../src/error-origin.js';

// Projects and configs as Playwright resolves them: plain data, testDir absolute.
function project(name: string, fields: Partial<FullProject> = {}): FullProject {
  return {
    name,
    testDir: '/repo/tests',
    testMatch: '**/*.@(spec|test).?(c|m)[jt]s?(x)',
    testIgnore: [],
    ...fields,
  } as FullProject;
}

function config(projects: FullProject[]): FullConfig {
  return { projects, filteredProjects: projects } as unknown as FullConfig;
}

describe('runsFile', () => {
  it("matches Playwright's default testMatch under testDir", () => {
    const p = project('p');
    expect(runsFile(p, '/repo/tests/cart.spec.ts')).toBe(true);
    expect(runsFile(p, '/repo/tests/deep/cart.test.mjs')).toBe(true);
    expect(runsFile(p, '/repo/tests/helpers.ts')).toBe(false);
    expect(runsFile(p, '/repo/other/cart.spec.ts')).toBe(false);
  });

  it('honours a RegExp or glob testMatch and testIgnore', () => {
    expect(runsFile(project('setup', { testMatch: /.*\.setup\.ts$/ }), '/repo/tests/auth.setup.ts')).toBe(
      true,
    );
    expect(runsFile(project('setup', { testMatch: /.*\.setup\.ts$/ }), '/repo/tests/cart.spec.ts')).toBe(
      false,
    );
    expect(runsFile(project('p', { testMatch: 'e2e/*.ts' }), '/repo/tests/e2e/cart.ts')).toBe(true);
    expect(runsFile(project('p', { testIgnore: ['**/legacy/**'] }), '/repo/tests/legacy/a.spec.ts')).toBe(
      false,
    );
  });
});

describe('errorOrigin', () => {
  const chromium = project('chromium');
  const setup = project('setup', { testMatch: /.*\.setup\.ts$/ });
  const run = config([setup, chromium, project('firefox')]);

  it('places a load error in the spec file, once for each project that runs that file', () => {
    const origin = errorOrigin(
      { message: 'Error: boom', location: { file: '/repo/tests/cart.spec.ts', line: 1, column: 1 } },
      undefined,
      run,
    );
    expect(origin).toEqual({
      kind: 'file',
      file: '/repo/tests/cart.spec.ts',
      projects: [chromium, run.projects[2]],
    });
  });

  it("places a worker's error in its own project only", () => {
    const workerInfo = { project: chromium } as WorkerInfo;
    const location = { file: '/repo/tests/cart.spec.ts', line: 3, column: 5 };
    expect(errorOrigin({ message: 'Error: teardown', location }, workerInfo, run)).toMatchObject({
      kind: 'file',
      projects: [chromium],
    });
  });

  it('gives an error outside every test file to the run, without terminal colours', () => {
    const location = { file: '/repo/global-setup.ts', line: 2, column: 9 };
    expect(
      errorOrigin({ message: '\u001b[31mError: no database\u001b[39m', location }, undefined, run),
    ).toEqual({
      kind: 'run',
      message: 'Error: no database',
    });
    expect(errorOrigin({ value: 'a thrown string' }, undefined, run)).toEqual({
      kind: 'run',
      message: 'a thrown string',
    });
  });

  it('ignores the notice that --max-failures stopped the run', () => {
    const notice = { message: '\u001b[31mTesting stopped early after 1 maximum allowed failures.\u001b[39m' };
    expect(errorOrigin(notice, undefined, run)).toEqual({ kind: 'ignored' });
  });
});
