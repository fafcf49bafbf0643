import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { documentationBlocks, REPO } from './doc-blocks.js';

// A code block in the docs either runs in a test or says it is only an illustration, so that
// none rots unseen: a config a user copies is loaded by a real runner (compat/packed/documented-runs.test.ts),
// a usage block is compared with the command. The convention is in CONTRIBUTING.md.
const blocks = documentationBlocks();
const where = (block: { page: string; line: number }) => `${block.page}:${block.line}`;

/** Every test file of the repository but this one, and the tables of compat/packed/ its files run: where a block's name must be taken. */
function testSources(): string {
  const dirs = [
    'test',
    'e2e',
    'compat',
    ...fs.readdirSync(path.join(REPO, 'packages')).map((name) => `packages/${name}/test`),
  ];
  return dirs
    .filter((dir) => fs.existsSync(path.join(REPO, dir)))
    .flatMap((dir) =>
      (fs.readdirSync(path.join(REPO, dir), { recursive: true }) as string[])
        .filter(
          (file) =>
            (file.endsWith('.test.ts') || (dir === 'compat' && /^packed\/[\w-]+\.ts$/.test(file))) &&
            !file.includes('node_modules'),
        )
        .map((file) => path.join(REPO, dir, file)),
    )
    .filter((file) => file !== import.meta.filename)
    .map((file) => fs.readFileSync(file, 'utf8'))
    .join('\n');
}

describe('code blocks in README.md, docs/ and the package READMEs', () => {
  it('are found (the reader sees the fences)', () => {
    expect(blocks.length).toBeGreaterThan(50);
    expect(blocks.some((block) => block.page.startsWith('docs/'))).toBe(true);
    expect(blocks.some((block) => block.page.startsWith('packages/'))).toBe(true);
  });

  it('each carry <!-- tested: name --> or <!-- illustration --> on the line before', () => {
    const unmarked = blocks.filter((block) => !block.marker).map(where);
    expect(unmarked, 'mark each: CONTRIBUTING.md, "Code blocks in the docs"').toEqual([]);
  });

  it('name each tested block once', () => {
    const names = blocks.flatMap((block) => (block.marker?.kind === 'tested' ? [block.marker.name] : []));
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
  });

  it('marked tested are taken by a test, by name', () => {
    const sources = testSources();
    const untaken = blocks
      .filter((block) => block.marker?.kind === 'tested')
      .filter((block) => !sources.includes(`'${(block.marker as { name: string }).name}'`))
      .map((block) => `${where(block)} (${(block.marker as { name: string }).name})`);
    expect(untaken, 'no test calls docBlock() with these names').toEqual([]);
  });

  // Illustrations too: a block a reader copies must at least be well-formed.
  it.each(blocks.filter((block) => block.language === 'json').map((block) => [where(block), block] as const))(
    '%s is JSON',
    (_, block) => {
      expect(() => JSON.parse(block.code)).not.toThrow();
    },
  );

  it.each(
    blocks
      .filter((block) => ['js', 'ts', 'mjs', 'cjs'].includes(block.language))
      .map((block) => [where(block), block] as const),
  )('%s is JavaScript or TypeScript without a syntax error', (_, block) => {
    const { diagnostics } = ts.transpileModule(block.code, {
      fileName: 'block.ts',
      reportDiagnostics: true,
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    });
    const problems = (diagnostics ?? []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(problems).toEqual([]);
  });
});
