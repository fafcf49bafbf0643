import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';
import { toTestSuite } from '../../src/results/result-name.js';
import { workspaceRootOf } from '../../src/results/workspace-root.js';

/** A folder tree from `files` (path → content), in a fresh temp dir. */
function tree(files: Record<string, string>): string {
  const root = tempDir('testrun-workspace-');
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), content);
  }
  return root;
}

const pkg = (name: string, extra: object = {}) => JSON.stringify({ name, ...extra });

describe('workspaceRootOf', () => {
  it.each([
    ['npm/yarn workspaces', { 'package.json': pkg('root', { workspaces: ['packages/*'] }) }],
    [
      'yarn workspaces.packages',
      { 'package.json': pkg('root', { workspaces: { packages: ['packages/*'] } }) },
    ],
    [
      'pnpm-workspace.yaml',
      { 'package.json': pkg('root'), 'pnpm-workspace.yaml': "packages:\n  - 'packages/*'\n" },
    ],
    [
      'pnpm flow style',
      { 'package.json': pkg('root'), 'pnpm-workspace.yaml': 'packages: [packages/*, apps/*]\n' },
    ],
    ['lerna.json', { 'package.json': pkg('root'), 'lerna.json': '{"packages":["packages/*"]}' }],
    ['a ** glob', { 'package.json': pkg('root', { workspaces: ['packages/**'] }) }],
  ])('finds the root of %s from a package and from a folder inside it', (_kind, manifests) => {
    const root = tree({
      ...manifests,
      'packages/cart/package.json': pkg('cart'),
      'packages/cart/test/x': '',
    });
    expect(workspaceRootOf(path.join(root, 'packages/cart'))).toBe(root);
    expect(workspaceRootOf(path.join(root, 'packages/cart/test'))).toBe(root);
  });

  it('finds none for the root itself, a folder no pattern lists, an excluded one or no workspace', () => {
    const root = tree({
      'package.json': pkg('root', { workspaces: ['packages/*', '!packages/legacy'] }),
      'packages/legacy/package.json': pkg('legacy'),
      'tools/fixtures/app/package.json': pkg('fixture'),
    });
    expect(workspaceRootOf(root)).toBeUndefined();
    expect(workspaceRootOf(path.join(root, 'packages/legacy'))).toBeUndefined();
    expect(workspaceRootOf(path.join(root, 'tools/fixtures/app'))).toBeUndefined();
    const alone = tree({ 'package.json': pkg('alone'), 'src/x': '' });
    expect(workspaceRootOf(path.join(alone, 'src'))).toBeUndefined();
  });
});

describe('toTestSuite in a monorepo', () => {
  it('names a package file the same when its own config runs it as when the root config does', () => {
    const root = tree({
      'package.json': pkg('root', { workspaces: ['packages/*'] }),
      'packages/a/package.json': pkg('a'),
      'packages/b/package.json': pkg('b'),
    });
    const file = (name: string) => path.join(root, 'packages', name, 'src/index.test.ts');
    expect(toTestSuite(file('a'), path.join(root, 'packages/a'))).toBe('packages/a/src/index.test.ts');
    expect(toTestSuite(file('a'), root, path.join(root, 'packages/a'))).toBe('packages/a/src/index.test.ts');
    expect(toTestSuite(file('b'), path.join(root, 'packages/b'))).toBe('packages/b/src/index.test.ts');
  });
});
