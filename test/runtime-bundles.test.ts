import fs from 'node:fs';
import path from 'node:path';
import { PUBLISHED_PACKAGES } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

// What a test framework's process loads of ours (docs/design/costs.md): one module per entry of
// each reporter and core's bundles, built by `pnpm build` (this suite's globalSetup), each
// taking Node's built-ins with process.getBuiltinModule. An ES import of a built-in builds its
// facade, which loads what every getter stands for (fs.promises, module's source maps, …).
const repo = path.resolve(import.meta.dirname, '..');
const REPORTERS = PUBLISHED_PACKAGES.filter((name) => !['core', 'server', 'cli'].includes(name));
const CORE_BUNDLES = ['index.js', 'attachments.js', 'summary/index.js', 'quarantine/index.js'];

/** The `./dist/<name>.js` targets of a package's exports map, and what its CommonJS files require. */
function entries(name: string): string[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(repo, 'packages', name, 'package.json'), 'utf8'));
  const targets = new Set<string>();
  const collect = (value: unknown): void => {
    if (typeof value === 'string') targets.add(value);
    else if (value && typeof value === 'object')
      for (const [condition, target] of Object.entries(value)) if (condition !== 'source') collect(target);
  };
  collect(manifest.exports);
  const names = [...targets].flatMap((target) => /^\.\/dist\/([\w-]+\.js)$/.exec(target)?.[1] ?? []);
  // And the ES modules its CommonJS files require (Mocha's, Newman's and TestCafe's entries).
  const dist = path.join(repo, 'packages', name, 'dist');
  for (const file of fs.readdirSync(dist).filter((file) => file.endsWith('.cjs'))) {
    const text = fs.readFileSync(path.join(dist, file), 'utf8');
    for (const [, required] of text.matchAll(/require\("\.\/([\w-]+\.js)"\)/g)) names.push(required!);
  }
  return [...new Set(names)];
}

const esImportsOfBuiltins = (file: string) =>
  [...fs.readFileSync(file, 'utf8').matchAll(/^import [^;]*? from "(node:[^"]+)"/gm)].map(([, name]) => name);

describe('the modules a runner loads', () => {
  it.each(REPORTERS)(
    '@testrun/%s: each entry is a bundle, importing no module of its own but entries and shared chunks, nor a built-in as an ES module',
    (name) => {
      const dist = path.join(repo, 'packages', name, 'dist');
      const ownEntries = entries(name);
      // What two entries share is a chunk (scripts/bundle-adapters.mjs); the Cucumber formatter
      // is bundled by a script of its own.
      const allowed = (file: string) =>
        ownEntries.includes(file) || /-[A-Z0-9]{8}\.js$/.test(file) || file === 'cucumber-formatter.js';
      const chunks = fs.readdirSync(dist).filter((file) => /-[A-Z0-9]{8}\.js$/.test(file));
      for (const file of [...ownEntries, ...chunks]) {
        const text = fs.readFileSync(path.join(dist, file), 'utf8');
        const relative = [...text.matchAll(/^(?:import|export) [^;]*? from "\.\/([^"]+)"/gm)].map(
          ([, to]) => to!,
        );
        expect(
          relative.filter((to) => !allowed(to)),
          `${name}/dist/${file}`,
        ).toEqual([]);
        expect(esImportsOfBuiltins(path.join(dist, file)), `${name}/dist/${file}`).toEqual([]);
      }
    },
  );

  it("core's bundles import no built-in as an ES module", () => {
    const dist = path.join(repo, 'packages', 'core', 'dist');
    const shared = fs.readdirSync(dist).filter((file) => /^shared-.*\.js$/.test(file));
    expect(shared).toHaveLength(1);
    for (const bundle of [...CORE_BUNDLES, ...shared]) {
      expect(esImportsOfBuiltins(path.join(dist, bundle)), bundle).toEqual([]);
    }
  });
});
