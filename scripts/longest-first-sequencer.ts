// The order `pnpm test` starts its files in: longest first, by the committed file times
// (scripts/file-durations.mjs). `main` runs three files at a time; a long file started last
// runs on alone while the other cores idle. Vitest orders so itself from its results cache,
// which a fresh clone (CI's) does not have: there it orders by file size.
// A file the list does not know runs first, as Vitest runs unknown files first: it may be long.
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { committedDurations } from './file-durations.mjs';

export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const durations: Record<string, number> = committedDurations();
    const root = this.ctx.config.root;
    const durationOf = (spec: TestSpecification) =>
      durations[path.relative(root, spec.moduleId)] ?? Number.POSITIVE_INFINITY;
    return [...files].sort(
      (a, b) =>
        a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
        durationOf(b) - durationOf(a) ||
        a.moduleId.localeCompare(b.moduleId),
    );
  }
}
