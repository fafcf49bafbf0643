import fs from 'node:fs';
import type { Config } from '@jest/reporters';

const CONFIG_EXTENSIONS = ['.js', '.ts', '.mjs', '.cjs', '.mts', '.cts', '.json'];

/**
 * How many projects the configuration defines, for `projectLabel: 'auto'`. Jest gives
 * reporters the configuration's `projects`, globs already expanded, before
 * `--selectProjects` or `--ignoreProjects` filter them, so a filtered run names its results
 * as the full run does. Like Jest, a path that is a file but not a config is no project.
 */
export function configuredProjectCount(globalConfig: Config.GlobalConfig | undefined): number {
  const projects: readonly unknown[] = globalConfig?.projects ?? [];
  return Math.max(1, projects.filter(isProject).length);
}

function isProject(project: unknown): boolean {
  if (typeof project !== 'string') return true;
  try {
    return (
      !fs.statSync(project).isFile() || CONFIG_EXTENSIONS.some((extension) => project.endsWith(extension))
    );
  } catch {
    // Not there (yet): Jest tries it as a project and fails loudly if it is none.
    return true;
  }
}
