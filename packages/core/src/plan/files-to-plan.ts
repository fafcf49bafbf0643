import fs from 'node:fs';
import { toName, toTestSuite } from '../results/result-name.js';
import { compareNames } from './place-files.js';
import type { FileToPlan } from './plan-shard.js';

/** A test file on disk, with the name the service knows it by. */
export interface LocalFile extends FileToPlan {
  /** Its absolute path. */
  path: string;
}

/**
 * Test files as the reporters name them (docs/naming.md): relative to the base folder the
 * runner names results from (`rootDir`, its root; a workspace's root in a monorepo; the
 * project's root beside it), so a plan's names meet the durations the reporters stored.
 * Each file once, sorted by name; its size read for the split by size. A file that cannot be
 * read weighs nothing in that split, and is still placed.
 */
export function filesToPlan(
  paths: Iterable<string>,
  rootDir: string,
  projectRootOf: (path: string) => string | undefined = () => undefined,
): LocalFile[] {
  const byName = new Map<string, LocalFile>();
  for (const path of paths) {
    const file = toName(toTestSuite(path, rootDir, projectRootOf(path)));
    if (!byName.has(file)) byName.set(file, { file, size: sizeOf(path), path });
  }
  return [...byName.values()].sort((a, b) => compareNames(a.file, b.file));
}

function sizeOf(path: string): number {
  try {
    return fs.statSync(path).size;
  } catch {
    return 0;
  }
}
