import fs from 'node:fs';
import path from 'node:path';
import { fixtures, tempDir } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';
import { filesToPlan } from '../../src/plan/files-to-plan.js';
import { toTestSuite } from '../../src/results/result-name.js';

// A plan names files as the reporters name their results (docs/naming.md), or it would find
// none of their durations: the same function, the same base folder.

describe('filesToPlan', () => {
  it('names files from the root, each once, sorted, with its size', () => {
    const root = tempDir('testrun-plan-files-');
    fs.mkdirSync(path.join(root, 'test'));
    fs.writeFileSync(path.join(root, 'test', 'b.test.js'), 'x'.repeat(30));
    fs.writeFileSync(path.join(root, 'a.test.js'), '');
    const b = path.join(root, 'test', 'b.test.js');
    expect(
      filesToPlan(
        [b, path.join(root, 'a.test.js'), path.join(root, 'test', '..', 'test', 'b.test.js')],
        root,
      ),
    ).toEqual([
      { file: 'a.test.js', size: 0, path: path.join(root, 'a.test.js') },
      { file: 'test/b.test.js', size: 30, path: b },
    ]);
  });

  it("names a monorepo package's files from the workspace root, run from the package or from the root", () => {
    const file = path.join(fixtures.monorepo, 'packages', 'cart', 'src', 'index.test.js');
    const named = 'packages/cart/src/index.test.js';
    expect(filesToPlan([file], path.join(fixtures.monorepo, 'packages', 'cart'))[0]!.file).toBe(named);
    expect(filesToPlan([file], fixtures.monorepo)[0]!.file).toBe(named);
  });

  it('names files as the reporter does for a config in a subfolder whose project lies elsewhere', () => {
    const rootDir = path.join(fixtures.monorepo, 'scripts', 'jest');
    const file = path.join(fixtures.monorepo, 'packages', 'pricing', 'src', 'index.test.js');
    const projectRoot = path.join(fixtures.monorepo, 'packages', 'pricing');
    expect(filesToPlan([file], rootDir, () => projectRoot)[0]!.file).toBe(
      toTestSuite(file, rootDir, projectRoot),
    );
    expect(filesToPlan([file], rootDir, () => projectRoot)[0]!.file).toBe(
      'packages/pricing/src/index.test.js',
    );
  });

  it('weighs a file it cannot read as empty, and still names it', () => {
    const root = tempDir('testrun-plan-files-');
    expect(filesToPlan([path.join(root, 'gone.test.js')], root)).toEqual([
      { file: 'gone.test.js', size: 0, path: path.join(root, 'gone.test.js') },
    ]);
  });
});
