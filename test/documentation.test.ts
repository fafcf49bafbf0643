import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// What the documentation says, held to what is there: each package README's Exports list to
// the package's src/index.ts, and every relative link of the docs to a file that exists.
const repo = path.resolve(import.meta.dirname, '..');
/** The published packages (test-utils is private). */
const PACKAGES = fs.readdirSync(path.join(repo, 'packages')).filter((name) => {
  const manifest = path.join(repo, 'packages', name, 'package.json');
  return fs.existsSync(manifest) && !JSON.parse(fs.readFileSync(manifest, 'utf8')).private;
});

/** Every name `src/index.ts` exports, types included (`export type *` read from its module). */
function exportedNames(dir: string, file = 'index.ts'): Set<string> {
  const source = fs.readFileSync(path.join(dir, file), 'utf8');
  const names = new Set<string>();
  for (const [, list] of source.matchAll(/export (?:type )?\{([^}]*)\}/g)) {
    for (const item of list!.split(',')) {
      const name = item
        .trim()
        .replace(/^type /, '')
        .split(/\s+as\s+/)
        .pop()!
        .replace(/'/g, '');
      if (name && name !== 'module.exports') names.add(name);
    }
  }
  for (const [, from] of source.matchAll(/export type \* from '\.\/(.+)\.js';/g)) {
    const module = fs.readFileSync(path.join(dir, `${from}.ts`), 'utf8');
    for (const [, name] of module.matchAll(/^export (?:interface|type) (\w+)/gm)) names.add(name!);
  }
  return names;
}

/** The names a README's "## Exports" section lists: the backticked names that open each bullet. */
function documentedNames(readme: string): Set<string> {
  const section = readme.slice(readme.indexOf('## Exports')).split(/\n## /)[0]!;
  const names = new Set<string>();
  for (const line of section.split('\n').filter((text) => text.startsWith('- '))) {
    const head = line.startsWith('- Types:') ? line : line.split(/(?<=`):/)[0]!;
    for (const [, name] of head.matchAll(/`(\w+)`/g)) names.add(name!);
  }
  return names;
}

describe.each(PACKAGES)('packages/%s/README.md', (name) => {
  it('lists exactly what the package exports', () => {
    const dir = path.join(repo, 'packages', name);
    const readme = fs.readFileSync(path.join(dir, 'README.md'), 'utf8');
    expect(readme).toContain('## Exports');
    expect([...documentedNames(readme)].sort()).toEqual([...exportedNames(path.join(dir, 'src'))].sort());
  });
});

describe('the documentation', () => {
  const pages = [
    'README.md',
    'CONTRIBUTING.md',
    ...(fs.readdirSync(path.join(repo, 'docs'), { recursive: true }) as string[])
      .filter((file) => file.endsWith('.md'))
      .map((file) => `docs/${file}`),
    ...PACKAGES.map((name) => `packages/${name}/README.md`),
  ];

  it.each(pages)('%s links only to files that exist', (page) => {
    const text = fs.readFileSync(path.join(repo, page), 'utf8').replace(/```[\s\S]*?```/g, '');
    const broken = [...text.matchAll(/\]\((?!https?:|#|mailto:)([^)#\s]+)(?:#[^)]*)?\)/g)]
      .map(([, target]) => target!)
      .filter((target) => !fs.existsSync(path.resolve(repo, path.dirname(page), target)));
    expect(broken).toEqual([]);
  });
});

describe('commands we print or document', () => {
  // `npx testrun` runs whatever the registry holds under the name `testrun` when the project
  // has no @testrun/cli: someone else's package, inside a CI job that holds the API key.
  // Every form that fetches a package must name ours.
  const FETCHING_RUNNER = /\b(?:npx|pnpx|bunx|pnpm dlx|yarn dlx|npm exec)((?:\s+-{1,2}\S+)*)\s+testrun\b/g;
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: repo, encoding: 'utf8' })
    .split('\0')
    .filter((file) => /\.(?:[cm]?[jt]s|md|json|ya?ml|sh)$/.test(file) || file.startsWith('.ci/'));

  it('never name a bare `testrun` package for npx and its kind to fetch', () => {
    const bare: string[] = [];
    for (const file of tracked) {
      // This file names the bad forms on purpose, as the examples its pattern must catch.
      if (file === 'test/documentation.test.ts' || !fs.existsSync(path.join(repo, file))) continue;
      const text = fs.readFileSync(path.join(repo, file), 'utf8');
      for (const match of text.matchAll(FETCHING_RUNNER)) {
        if (match[1]!.includes('@testrun/')) continue;
        const line = text.slice(0, match.index).split('\n').length;
        bare.push(`${file}:${line}: ${match[0]}`);
      }
    }
    expect(bare).toEqual([]);
  });

  it('the pattern catches each form that would fetch an unrelated package', () => {
    const caught = (text: string) =>
      [...text.matchAll(FETCHING_RUNNER)].filter((m) => !m[1]!.includes('@testrun/'));
    for (const text of [
      'npx testrun replay',
      'npx --no testrun replay',
      'pnpm dlx testrun upload',
      'bunx testrun',
    ]) {
      expect(caught(text), text).toHaveLength(1);
    }
    for (const text of [
      'npx @testrun/cli replay',
      'npx --package=@testrun/cli testrun replay',
      'pnpm exec testrun serve',
    ]) {
      expect(caught(text), text).toHaveLength(0);
    }
  });
});
