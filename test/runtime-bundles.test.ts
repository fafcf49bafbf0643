import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// What a test framework's process loads of ours (docs/design/costs.md): one module per entry of
// each reporter and core's bundles, built by `pnpm build` (this suite's globalSetup), each
// taking Node's built-ins with process.getBuiltinModule. An ES import of a built-in builds its
// facade, which loads what every getter stands for (fs.promises, module's source maps, …).
const repo = path.resolve(import.meta.dirname, '..');
const REPORTERS = [
  'vitest',
  'jest',
  'playwright',
  'mocha',
  'node-test',
  'cucumber',
  'jasmine',
  'webdriverio',
  'testcafe',
  'newman',
];
const CORE_BUNDLES = ['index.js', 'attachments.js', 'summary/index.js', 'quarantine/index.js'];

/** The `./dist/<name>.js` targets of a package's exports map. */
function entries(name: string): string[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(repo, 'packages', name, 'package.json'), 'utf8'));
  const targets = new Set<string>();
  const collect = (value: unknown): void => {
    if (typeof value === 'string') targets.add(value);
    else if (value && typeof value === 'object')
      for (const [condition, target] of Object.entries(value)) if (condition !== 'source') collect(target);
  };
  collect(manifest.exports);
  return [...targets].flatMap((target) => /^\.\/dist\/([\w-]+\.js)$/.exec(target)?.[1] ?? []);
}

const esImportsOfBuiltins = (file: string) =>
  [...fs.readFileSync(file, 'utf8').matchAll(/^import [^;]*? from "(node:[^"]+)"/gm)].map(([, name]) => name);

describe('the modules a runner loads', () => {
  it.each(REPORTERS)(
    '@testrun/%s: each entry is one bundle, importing no built-in as an ES module',
    (name) => {
      const dist = path.join(repo, 'packages', name, 'dist');
      for (const entry of entries(name)) {
        const text = fs.readFileSync(path.join(dist, entry), 'utf8');
        expect(text, `${name}/dist/${entry}`).toMatch(/^\/\/ packages\/[\w-]+\/src\/[\w-]+\.ts$/m);
        expect(esImportsOfBuiltins(path.join(dist, entry)), `${name}/dist/${entry}`).toEqual([]);
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
