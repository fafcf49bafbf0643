// Part of the build: an esbuild plugin for the bundles a test framework's process loads (core's,
// scripts/bundle-core.mjs, and each reporter's, scripts/bundle-adapters.mjs). Node's built-in
// modules are taken with `process.getBuiltinModule` (Node 20.16+) rather than imported: an ES
// module's import of a built-in builds its ES module facade, which reads every export, getters
// included, and so loads what a run never uses (`fs.promises` and `fs.ReadStream` with their
// streams, `module`'s source maps, `crypto.webcrypto`, `timers.promises`): several ms of every
// run, measured (docs/performance.md#what-a-run-loads-and-what-is-left).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
/** builtinNames' answer per folder: core's five bundles are built from one. */
const namesByDir = new Map();

/**
 * The plugin for a bundle of the sources under `sourceDir`: a module stands in for each
 * built-in they import, with the names they import from it, read once when the bundle is
 * evaluated. A name it does not offer fails the build (`import-is-undefined` is an error then).
 */
export function builtinsTaken(sourceDir) {
  return {
    name: 'builtins-taken',
    setup(build) {
      build.initialOptions.logOverride = {
        ...build.initialOptions.logOverride,
        'import-is-undefined': 'error',
      };
      if (!namesByDir.has(sourceDir)) namesByDir.set(sourceDir, builtinNames(sourceDir));
      const names = namesByDir.get(sourceDir);
      build.onResolve({ filter: /^node:/ }, (args) =>
        args.kind === 'import-statement' ? { path: args.path, namespace: 'node-builtin' } : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: 'node-builtin' }, ({ path: name }) => ({
        contents: [
          `const module = process.getBuiltinModule(${JSON.stringify(name)});`,
          'export default module;',
          ...exportedNames(name, names.get(name)).map((key) => `export const ${key} = module.${key};`),
        ].join('\n'),
        loader: 'js',
      }));
    },
  };
}

/**
 * The names a built-in's stand-in offers: those imported from it, or, where a source imports
 * it whole (`import * as timers`), every export but the getters (reading one would load what
 * it stands for).
 */
function exportedNames(name, imported = new Set()) {
  if (!imported.has('*')) return [...imported];
  const module = require(name);
  return Object.keys(module).filter(
    (key) => /^[A-Za-z_$][\w$]*$/.test(key) && !Object.getOwnPropertyDescriptor(module, key).get,
  );
}

/** Per built-in (`node:crypto`), the names the sources under `dir` import from it (`*`: all of them), types left out. */
function builtinNames(dir) {
  const names = new Map();
  const add = (name, imported) => names.set(name, new Set([...(names.get(name) ?? []), ...imported]));
  for (const file of fs.readdirSync(dir, { recursive: true })) {
    if (!/\.[cm]?ts$/.test(file)) continue;
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    for (const [, name] of text.matchAll(/import \* as \w+ from '(node:[^']+)'/g)) add(name, ['*']);
    for (const [, list, name] of text.matchAll(/import (?:\w+, )?\{([^}]*)\} from '(node:[^']+)'/g)) {
      add(
        name,
        list
          .split(',')
          .map((entry) => entry.trim())
          .filter((entry) => entry && !entry.startsWith('type '))
          .map((entry) => entry.split(/\s+as\s+/)[0]),
      );
    }
  }
  return names;
}
