import { describe, expect, it } from 'vitest';
import type { Vitest } from 'vitest/node';
import { configuredProjectCount } from '../src/project-count.js';

// What projectLabel 'auto' counts. Real runs, filtered and not, are in
// e2e/identity-across-projects.test.ts; here, the configurations those do not cover.

function vitest(running: number, filter: string[], projects?: unknown[]): Vitest {
  return {
    projects: Array.from({ length: running }, (_, i) => ({ name: `p${i}` })),
    config: { project: filter, projects },
  } as unknown as Vitest;
}

describe('configuredProjectCount', () => {
  it('counts the projects that run when no --project filter is given', () => {
    expect(configuredProjectCount(vitest(3, [], ['packages/*']))).toBe(3);
    expect(configuredProjectCount(vitest(1, []))).toBe(1);
  });

  it('counts the configured entries when --project leaves fewer running', () => {
    expect(
      configuredProjectCount(vitest(1, ['node'], [{ test: { name: 'node' } }, { test: { name: 'edge' } }])),
    ).toBe(2);
  });

  it('counts a single configured project as one, filtered or not', () => {
    expect(configuredProjectCount(vitest(1, ['node'], [{ test: { name: 'node' } }]))).toBe(1);
  });

  it('counts a glob entry as several, and a negated entry as none', () => {
    expect(configuredProjectCount(vitest(1, ['a'], ['packages/*']))).toBe(2);
    expect(configuredProjectCount(vitest(1, ['a'], ['packages/a', '!packages/b']))).toBe(1);
  });

  it('counts an inline project with browser instances as one per instance', () => {
    const browser = { test: { browser: { enabled: true, instances: [{}, {}, {}] } } };
    expect(configuredProjectCount(vitest(1, ['chromium'], [browser]))).toBe(3);
  });

  it('counts projects it cannot see (a Vitest 3.2 workspace file) as several when filtered', () => {
    expect(configuredProjectCount(vitest(1, ['node']))).toBe(2);
  });
});
