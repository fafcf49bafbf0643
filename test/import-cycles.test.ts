import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from '@testrun/test-utils';
import ts from 'typescript';
import { expect, it } from 'vitest';

// No module of a package's src imports itself back, directly or through others: a reader
// follows a module's imports down and never arrives where they started. Type-only imports and
// the lazy `import()`s count too: a circle of types is still a circle to read. Packages import
// one another by name (their build), so a circle is looked for within each package's src.
const repo = path.resolve(import.meta.dirname, '..');
const SOURCE = /\.(ts|cts|mts|js|cjs|mjs)$/;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).flatMap((entry) => {
    const file = path.join(dir, entry);
    return SOURCE.test(entry) && !entry.endsWith('.d.ts') && fs.statSync(file).isFile() ? [file] : [];
  });
}

/** The module a relative specifier names: `./x.js` is `./x.ts` in src. */
function resolve(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [
    base,
    base.replace(/\.js$/, '.ts'),
    base.replace(/\.cjs$/, '.cts'),
    base.replace(/\.mjs$/, '.mts'),
    `${base}.ts`,
    path.join(base, 'index.ts'),
  ];
  return candidates.find((file) => fs.existsSync(file) && fs.statSync(file).isFile());
}

function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map(({ fileName }) => fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .flatMap((specifier) => resolve(file, specifier) ?? []);
}

/** Every circle among `files`, each once, as the paths from a module back to itself. */
function cycles(files: string[]): string[][] {
  const graph = new Map(files.map((file) => [file, importsOf(file)]));
  const found = new Map<string, string[]>();
  const done = new Set<string>();
  const walk = (file: string, trail: string[]) => {
    const at = trail.indexOf(file);
    if (at >= 0) {
      const circle = trail.slice(at);
      found.set([...circle].sort().join(' '), [...circle, file]);
      return;
    }
    if (done.has(file)) return;
    for (const next of graph.get(file) ?? []) walk(next, [...trail, file]);
    done.add(file);
  };
  for (const file of files) walk(file, []);
  return [...found.values()];
}

it('no module imports itself back, directly or through others', () => {
  const packages = fs.readdirSync(path.join(repo, 'packages'));
  const circles = packages.flatMap((name) => {
    const src = path.join(repo, 'packages', name, 'src');
    return fs.existsSync(src) ? cycles(sourceFiles(src)) : [];
  });
  expect(circles.map((circle) => circle.map((file) => path.relative(repo, file)).join(' → '))).toEqual([]);
});

it('the check sees a circle through a type-only import and a lazy import()', () => {
  const dir = tempDir('cycles-');
  try {
    fs.writeFileSync(path.join(dir, 'a.ts'), "import type { B } from './b.js';\nexport type A = B;\n");
    fs.writeFileSync(
      path.join(dir, 'b.ts'),
      "export type B = 1;\nexport const c = () => import('./c.js');\n",
    );
    fs.writeFileSync(path.join(dir, 'c.ts'), "import type { A } from './a.js';\nexport type C = A;\n");
    fs.writeFileSync(
      path.join(dir, 'outside.ts'),
      "import type { A } from './a.js';\nexport type Outside = A;\n",
    );
    const found = cycles(sourceFiles(dir)).map((circle) => circle.map((file) => path.basename(file)));
    expect(found).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// Core's parts stand in layers, each importing only those below it (docs/design/README.md#cores-layers):
// a reader who opens options/ never has to know delivery/, and farm-studio draws no arrow up.
const CORE_LAYERS: string[][] = [
  [
    'types.ts',
    'clock.ts',
    'inert.ts',
    'random-uuid.ts',
    'sha256.ts',
    'version.ts',
    'start-dir.ts',
    'extensions.ts',
    'exit-guard.ts',
    'summary',
    'quarantine',
  ],
  ['errors.ts', 'runner-version.ts'],
  ['options'],
  ['output'],
  ['http', 'results', 'hooks.ts'],
  ['delivery'],
  ['run-end', 'plan'],
  ['attachments'],
  ['spool'],
  ['run-session.ts'],
  ['run-reporter.ts'],
  ['index.ts'],
];

/** Each import of core's src that reaches a layer above its own, as `from → to`. */
function upwardImports(src: string, layers: string[][]): string[] {
  const layerOf = (file: string) => {
    const part = path.relative(src, file).split(path.sep)[0]!;
    const at = layers.findIndex((layer) => layer.includes(part));
    return { part, at: at < 0 ? Number.POSITIVE_INFINITY : at };
  };
  return sourceFiles(src).flatMap((file) => {
    const from = layerOf(file);
    return importsOf(file).flatMap((target) => {
      const to = layerOf(target);
      return to.part !== from.part && to.at >= from.at
        ? [`${path.relative(src, file)} → ${path.relative(src, target)}`]
        : [];
    });
  });
}

it("core's parts import only the layers below them", () => {
  const src = path.join(repo, 'packages', 'core', 'src');
  const unplaced = fs
    .readdirSync(src)
    .filter((entry) => !CORE_LAYERS.flat().includes(entry) && !entry.endsWith('.d.ts'));
  expect(unplaced, 'every file and folder of core/src has a layer').toEqual([]);
  expect(upwardImports(src, CORE_LAYERS)).toEqual([]);
});

it('the layer check sees an import of a part beside or above', () => {
  const dir = tempDir('layers-');
  try {
    fs.mkdirSync(path.join(dir, 'low'));
    fs.mkdirSync(path.join(dir, 'high'));
    fs.writeFileSync(
      path.join(dir, 'low', 'a.ts'),
      "import { b } from '../high/b.js';\nexport const a = b;\n",
    );
    fs.writeFileSync(path.join(dir, 'high', 'b.ts'), 'export const b = 1;\n');
    fs.writeFileSync(path.join(dir, 'high', 'c.ts'), "import { b } from './b.js';\nexport const c = b;\n");
    expect(upwardImports(dir, [['low'], ['high']])).toEqual([`low${path.sep}a.ts → high${path.sep}b.ts`]);
    expect(upwardImports(dir, [['high'], ['low']])).toEqual([]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
