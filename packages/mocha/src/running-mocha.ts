import { createRequire } from 'node:module';
import path from 'node:path';
import type { MochaReporterClass } from './mocha-types.js';

/** What the reporter needs of the Mocha that runs it. */
export interface RunningMocha {
  version: string;
  /** Loads a reporter by name exactly as `--reporter` does: a built-in, a package, or a path. */
  loadReporter(name: string): MochaReporterClass;
}

/**
 * The Mocha this process runs: the one already loaded (Mocha requires its reporter, so its
 * lib/mocha.js is in the module cache), else the one the project resolves. Reporters get no
 * handle on Mocha itself.
 */
export function runningMocha(cwd: string = process.cwd()): RunningMocha | undefined {
  // lib/mocha.js up to Mocha 11; lib/mocha.cjs from Mocha 12, whose package is an ES module.
  const suffixes = ['mocha.js', 'mocha.cjs'].map(
    (file) => `${path.sep}mocha${path.sep}lib${path.sep}${file}`,
  );
  // Any require() sees the one module cache: one made for the project's folder, as import.meta
  // (which loads a module of Node's ES loader) is not needed for it.
  const require = createRequire(path.join(cwd, 'package.json'));
  const loaded = Object.keys(require.cache).find((file) => suffixes.some((suffix) => file.endsWith(suffix)));
  let Mocha: MochaClass | undefined;
  try {
    const module = (loaded ? require(loaded) : require('mocha')) as MochaClass | { default: MochaClass };
    // require() of Mocha 12's ES module entry gives its namespace; the class is its default.
    Mocha =
      'default' in module && typeof module.default === 'function' ? module.default : (module as MochaClass);
  } catch {
    return undefined;
  }
  const version = Mocha.prototype?.version;
  return {
    version: typeof version === 'string' ? version : 'unknown',
    loadReporter(name) {
      // Mocha#reporter: built-ins, then require() from Mocha's folder, then a path from the
      // working directory; it throws Mocha's own error naming what failed.
      const holder = { options: {} as Record<string, unknown>, _reporter: undefined as unknown };
      Mocha.prototype.reporter.call(holder, name);
      if (typeof holder._reporter !== 'function') {
        throw new TypeError(`${name} is not a Mocha reporter (it exports no constructor)`);
      }
      return holder._reporter as MochaReporterClass;
    },
  };
}

interface MochaClass {
  prototype: { version?: unknown; reporter(this: unknown, name: string): unknown };
}
