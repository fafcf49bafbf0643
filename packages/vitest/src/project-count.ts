import type { Vitest } from 'vitest/node';

/**
 * How many projects the configuration defines, for `projectLabel: 'auto'`. A run filtered
 * with `--project` must name its results as the full run does, but `vitest.projects` then
 * holds only the projects left: a filtered run counts the entries of `test.projects`
 * instead, a glob entry as several (it usually matches several packages).
 */
export function configuredProjectCount(vitest: Vitest): number {
  const running = vitest.projects.length;
  const filter: unknown = vitest.config.project;
  if (!Array.isArray(filter) || filter.length === 0) return running;
  const definitions: unknown = vitest.config.projects;
  // Projects from a workspace file (Vitest 3.2) are not in the resolved config; a filter
  // picks among several, so the run counts as several.
  if (!Array.isArray(definitions)) return Math.max(running, 2);
  return Math.max(
    running,
    definitions.map(entryCount).reduce((sum, count) => sum + count, 0),
  );
}

const GLOB_CHARACTERS = /[*?[\]{}]/;

function entryCount(entry: unknown): number {
  if (typeof entry === 'string') {
    if (entry.startsWith('!')) return 0;
    return GLOB_CHARACTERS.test(entry) ? 2 : 1;
  }
  // An inline project with browser instances is one project per instance.
  const browser = (entry as { test?: { browser?: { enabled?: boolean; instances?: unknown[] } } } | null)
    ?.test?.browser;
  return browser?.enabled && Array.isArray(browser.instances) && browser.instances.length > 0
    ? browser.instances.length
    : 1;
}
