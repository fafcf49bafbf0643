// Part of the build (scripts/build.mjs), after `tsc -b`: each reporter's modules that are loaded
// from outside it (its exports map's targets, and what its CommonJS files require) become one
// file each, so a test framework's process reads, resolves and compiles one module of ours
// where tsc's output had up to seven (2–3 ms of every Mocha run, measured), and takes Node's
// built-ins without their ES facades (builtins-taken.mjs). Its dependencies, @testrun/core
// among them, stay imports. No code of the package is loaded twice: an entry another entry
// imports stays a module of its own, and what two entries share goes into a chunk beside them
// (`<name>-<HASH>.js`), one copy, whose state both see (Jasmine's register.js asks index.js's
// reporter whether the configuration made one). tsc's other modules and the declarations stay
// in dist.
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { asciiOnly } from './ascii-only.mjs';
import { builtinsTaken } from './builtins-taken.mjs';

const repo = new URL('../', import.meta.url).pathname;

export const ADAPTERS = [
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

/** A chunk esbuild wrote: what two entries share. */
export const CHUNK = /-[A-Z0-9]{8}\.js$/;

/** Modules bundled by a script of their own (bundle-webdriverio.mjs), imported as they are. */
const BUNDLED_ELSEWHERE = { webdriverio: ['cucumber-formatter'] };

export async function bundleAdapters() {
  await Promise.all(ADAPTERS.map((name) => bundleAdapter(name)));
}

async function bundleAdapter(name) {
  const dir = path.join(repo, 'packages', name);
  const entries = entryModules(dir);
  const sources = path.join(dir, 'src');
  const dist = path.join(dir, 'dist');
  for (const file of fs.readdirSync(dist)) if (CHUNK.test(file)) fs.rmSync(path.join(dist, file));
  await build({
    entryPoints: Object.fromEntries(entries.map((entry) => [entry, path.join(sources, `${entry}.ts`)])),
    outdir: dist,
    splitting: true,
    chunkNames: '[name]-[hash]',
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    packages: 'external',
    plugins: [
      entriesApart(sources, [...entries, ...(BUNDLED_ELSEWHERE[name] ?? [])]),
      builtinsTaken(sources),
      asciiOnly,
    ],
    logLevel: 'warning',
  });
}

/**
 * The modules of dist/ loaded from outside the package's own code: its exports map's ES
 * targets (`./dist/index.js`) and the ES modules its CommonJS files require
 * (`require("./reporter.js")`), each named by its source (`src/<name>.ts`).
 */
function entryModules(dir) {
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const targets = [];
  const collect = (value) => {
    if (typeof value === 'string') targets.push(value);
    else if (value && typeof value === 'object')
      for (const [condition, target] of Object.entries(value))
        if (condition !== 'source' && condition !== 'types') collect(target);
  };
  collect(manifest.exports);
  const names = targets.flatMap((target) => /^\.\/dist\/([\w-]+)\.js$/.exec(target)?.[1] ?? []);
  const dist = path.join(dir, 'dist');
  for (const file of fs.readdirSync(dist).filter((name) => name.endsWith('.cjs'))) {
    const text = fs.readFileSync(path.join(dist, file), 'utf8');
    for (const [, name] of text.matchAll(/require\("\.\/([\w-]+)\.js"\)/g)) names.push(name);
  }
  return [...new Set(names)].filter((name) => fs.existsSync(path.join(dir, 'src', `${name}.ts`)));
}

/** An import of another entry's source (of `apart`) stays an import of its bundle (`./reporter.js`). */
function entriesApart(sources, apart) {
  const files = new Map(apart.map((entry) => [path.join(sources, `${entry}.ts`), entry]));
  return {
    name: 'entries-apart',
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, (args) => {
        const entry = files.get(path.resolve(args.resolveDir, args.path).replace(/\.js$/, '.ts'));
        return entry && args.kind !== 'entry-point' ? { path: `./${entry}.js`, external: true } : undefined;
      });
    },
  };
}
