import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  cleanEnv,
  type RunOutcome,
  readSpoolLines,
  reporterEnv,
  runProcess as run,
  startTestServer,
  type TestServer,
} from '@testrun/test-utils';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

// What a user gets from the registry: each package packed the way `pnpm release` publishes
// it, installed with plain npm into a project outside the workspace (no workspace links, no
// hoisted dev dependencies), then loaded by real Vitest, Jest, Playwright, Mocha and
// `node --test` and the installed CLI. Needs `pnpm build` first and the npm registry for
// vitest, jest, @playwright/test (no browser: its tests use none), mocha and typescript.

const PACKAGES = ['core', 'vitest', 'jest', 'playwright', 'mocha', 'node-test', 'server', 'cli'] as const;
type PackageDir = (typeof PACKAGES)[number];

const PACKAGES_DIR = fileURLToPath(new URL('../packages/', import.meta.url));
/** Reused between runs so that only the first npm install downloads anything. */
const NPM_CACHE = path.join(os.tmpdir(), 'testrun-npm-cache');
const CONSUMER_NAME = 'packed-consumer';
const INSTALL_TIMEOUT_MS = 300_000;

let workDir: string;
const tarballs = {} as Record<PackageDir, string>;
const spoolDirs: string[] = [];

beforeAll(async () => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'testrun-packed-'));
  for (const dir of PACKAGES) {
    const destination = path.join(workDir, 'tarballs', dir);
    fs.mkdirSync(destination, { recursive: true });
    succeeded(
      await run('pnpm', ['pack', '--pack-destination', destination], { cwd: packageDir(dir) }),
      `pnpm pack in packages/${dir}`,
    );
    const packed = fs.readdirSync(destination).filter((name) => name.endsWith('.tgz'));
    expect(packed, `pnpm pack in packages/${dir} made one tarball`).toHaveLength(1);
    tarballs[dir] = path.join(destination, packed[0]!);
  }
}, 120_000);

afterAll(() => {
  for (const dir of [workDir, ...spoolDirs]) {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }
});

describe('the packed tarballs', () => {
  it.each(PACKAGES)('@testrun/%s depends on real versions, not workspace:*', async (dir) => {
    const manifest = JSON.parse(await tarFile(tarballs[dir], 'package/package.json')) as Manifest;

    expect(JSON.stringify(manifest)).not.toContain('workspace:');
    const sections = [manifest.dependencies, manifest.peerDependencies, manifest.optionalDependencies];
    for (const section of sections) {
      for (const [name, range] of Object.entries(section ?? {})) {
        if (name.startsWith('@testrun/')) expect(range, name).toBe(workspaceVersion(name));
      }
    }
    expect(manifest.name).toBe(`@testrun/${dir}`);
    expect(manifest.version).toBe(workspaceVersion(manifest.name));
  });

  it.each(PACKAGES)('@testrun/%s holds the built code, its types and docs, and nothing else', async (dir) => {
    const entries = await tarList(tarballs[dir]);
    const files = new Set(entries.filter((entry) => !entry.endsWith('/')));

    for (const name of ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md']) {
      expect(files, `${dir}: ${name}`).toContain(`package/${name}`);
    }
    // Every source module, compiled, with its declarations (a .cts module: .cjs and .d.cts).
    for (const { module, js, dts } of sourceModules(dir)) {
      expect(files, `${dir}: dist/${module}${js}`).toContain(`package/dist/${module}${js}`);
      expect(files, `${dir}: dist/${module}${dts}`).toContain(`package/dist/${module}${dts}`);
    }
    // Whatever the manifest points at is in the tarball.
    const manifest = JSON.parse(await tarFile(tarballs[dir], 'package/package.json')) as Manifest;
    for (const target of manifestTargets(manifest)) {
      expect(files, `${dir}: ${target}, named in package.json`).toContain(
        `package/${path.posix.normalize(target)}`,
      );
    }

    const unwanted = [...files].filter(
      (file) =>
        /\/(test|tests|__tests__|fixtures|src)\//.test(file) ||
        /\.(test|spec)\.[cm]?[jt]s$/.test(file) ||
        /tsconfig[^/]*\.json$/.test(file) ||
        file.endsWith('.tsbuildinfo') ||
        (file.endsWith('.ts') && !file.endsWith('.d.ts')),
    );
    expect(unwanted, `${dir}: tests, fixtures, sources or build config`).toEqual([]);
    const unexpected = [...files].filter(
      (file) =>
        !/^package\/(package\.json|README\.md|LICENSE|CHANGELOG\.md|dist\/.+\.(c?js|d\.c?ts)|bin\/[^/]+\.js)$/.test(
          file,
        ),
    );
    expect(unexpected, `${dir}: files outside dist, bin and the docs`).toEqual([]);
  });
});

describe('installed from the tarballs with npm, outside the workspace', () => {
  let project: string;
  let install: RunOutcome;
  let server: TestServer;

  beforeAll(async () => {
    project = path.join(workDir, 'project');
    fs.mkdirSync(project);
    writeFiles(project, consumerProject());
    install = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], {
      cwd: project,
      env: consumerEnv(),
      timeoutMs: INSTALL_TIMEOUT_MS - 10_000,
    });
    succeeded(install, 'npm install');
  }, INSTALL_TIMEOUT_MS);

  beforeEach(async () => {
    server = await startTestServer();
  });

  /** The reporter's environment, aimed at this test's server, spooling into a dir removed afterwards. */
  function envFor(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    const env = reporterEnv(server, extra);
    spoolDirs.push(env.TESTRUN_SPOOL_DIR!);
    return consumerEnv(env);
  }

  it('took every @testrun package from its tarball, none from the registry', () => {
    const lock = JSON.parse(fs.readFileSync(path.join(project, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string; resolved?: string }>;
    };
    const ours = Object.entries(lock.packages).filter(([location]) => location.includes('@testrun/'));
    expect(ours.map(([location]) => location).sort()).toEqual(
      PACKAGES.map((dir) => `node_modules/@testrun/${dir}`).sort(),
    );
    for (const [location, entry] of ours) {
      expect(entry.resolved, location).toMatch(/^file:.*\.tgz$/);
    }
    expect(install.stderr).not.toMatch(/ERESOLVE|peer dep/i);
  });

  it('reports a Vitest run (ESM config), Jest runs (CJS and ESM configs), a Playwright run (TS config), a Mocha run and a node --test run', async () => {
    const bin = (name: string) => path.join(project, 'node_modules', '.bin', name);
    const runs = [
      { framework: 'vitest', outcome: await run(bin('vitest'), ['run'], { cwd: project, env: envFor() }) },
      {
        framework: 'jest',
        outcome: await run(bin('jest'), ['--config', 'jest.config.js'], { cwd: project, env: envFor() }),
      },
      {
        framework: 'jest',
        outcome: await run(bin('jest'), ['--config', 'jest.config.mjs'], { cwd: project, env: envFor() }),
      },
      {
        framework: 'playwright',
        outcome: await run(bin('playwright'), ['test', '--output', path.join(workDir, 'playwright-output')], {
          cwd: project,
          env: envFor(),
        }),
      },
      // The README's lines: Mocha requires the reporter (its CommonJS entry)...
      {
        framework: 'mocha',
        outcome: await run(bin('mocha'), ['--reporter', '@testrun/mocha', 'mocha-tests'], {
          cwd: project,
          env: envFor(),
        }),
      },
      // ...and node --test imports it, beside its own spec reporter.
      {
        framework: 'node-test',
        outcome: await run(
          process.execPath,
          [
            '--test',
            '--test-reporter=@testrun/node-test',
            '--test-reporter-destination=stdout',
            '--test-reporter=spec',
            '--test-reporter-destination=stdout',
            'node-tests/math.test.js',
          ],
          { cwd: project, env: envFor() },
        ),
      },
    ];

    const stored = server.server.store.runs();
    const outputs = runs.map(({ outcome }) => outcome.stdout + outcome.stderr).join('\n');
    expect(
      stored.map((storedRun) => storedRun.framework),
      outputs,
    ).toEqual(['vitest', 'jest', 'jest', 'playwright', 'mocha', 'node-test']);
    for (const [i, { framework, outcome }] of runs.entries()) {
      const storedRun = stored[i]!;
      const output = outcome.stdout + outcome.stderr;
      expect(storedRun, output).toMatchObject({ project: CONSUMER_NAME, framework, tags: [] });
      const suite = {
        vitest: 'vitest-tests/math.test.mjs',
        jest: 'jest-tests/math.test.js',
        // Playwright names files from its testDir.
        playwright: 'math.spec.ts',
        mocha: 'mocha-tests/math.test.js',
        'node-test': 'node-tests/math.test.js',
      }[framework];
      const results = server.server.store.results(storedRun.id);
      expect(
        results.map(({ testSuite, testCase, status }) => ({ testSuite, testCase, status })).sort(byCase),
      ).toEqual([
        { testSuite: suite, testCase: 'math > adds', status: 'passed' },
        { testSuite: suite, testCase: 'math > carries > over ten', status: 'passed' },
        { testSuite: suite, testCase: 'math > fails on purpose', status: 'failed' },
        { testSuite: suite, testCase: 'math > is skipped', status: 'skipped' },
        { testSuite: suite, testCase: 'math > is to do', status: 'skipped' },
      ]);
      for (const result of results) expect(result.duration).toBeGreaterThanOrEqual(0);
      expect(output).toContain(`testrun: 5 results → run ${storedRun.id}`);
      // One test fails on purpose: the framework's exit code, unchanged by the reporter.
      expect(outcome.code, output).toBe(1);
    }
    for (const dir of spoolDirs) expect(readSpoolLines(dir)).toEqual([]);
  });

  it('runs the installed testrun command', async () => {
    const testrun = path.join(project, 'node_modules', '.bin', 'testrun');

    const help = await run(testrun, ['--help'], { cwd: project, env: consumerEnv() });
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toContain('Usage: testrun <command>');

    const created = await run(testrun, ['create-run', '--framework', 'vitest', '--project', 'p'], {
      cwd: project,
      env: envFor(),
    });
    expect(created.code, created.stderr).toBe(0);
    const id = created.stdout.trim();
    expect(server.server.store.run(id)).toMatchObject({ id, project: 'p', framework: 'vitest' });

    // The form every spool line prints resolves to the installed CLI (`--no`: never the registry).
    const replay = await run('npx', ['--no', '@testrun/cli', 'replay'], { cwd: project, env: envFor() });
    expect(replay.code, replay.stdout + replay.stderr).toBe(0);
    expect(replay.stdout + replay.stderr).toMatch(/^testrun replay: nothing to send in /m);
  });

  it('exports the option types to ESM and CommonJS TypeScript (module nodenext)', async () => {
    const tsc = await run('npx', ['tsc', '--noEmit', '-p', '.'], { cwd: project, env: consumerEnv() });
    expect(tsc.code, tsc.stdout + tsc.stderr).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------
// The consumer project

function consumerProject(): Record<string, string> {
  const dependencies = Object.fromEntries(
    PACKAGES.map((dir) => [`@testrun/${dir}`, `file:${tarballs[dir]}`]),
  );
  const mathTest = (
    imports: string,
    names = { describe: 'describe', it: 'it', todo: "it.todo('is to do')" },
  ) => `${imports}
${names.describe}('math', () => {
  ${names.it}('adds', () => {
    expect(1 + 1).toBe(2);
  });
  ${names.describe}('carries', () => {
    ${names.it}('over ten', () => {
      expect(9 + 1).toBe(10);
    });
  });
  ${names.it}('fails on purpose', () => {
    expect(1 + 1).toBe(3);
  });
  ${names.it}.skip('is skipped', () => {});
  ${names.todo};
});
`;
  // Types only, so both files run under tsc alone. The @ts-expect-error lines fail to
  // compile if an import resolved to nothing (an `any` accepts everything).
  const typesFile = (exportPrefix: string) => `import type { TestrunJestOptions } from '@testrun/jest';
import type { TestrunMochaOptions } from '@testrun/mocha';
import type { TestrunNodeTestOptions } from '@testrun/node-test';
import type { TestrunPlaywrightOptions } from '@testrun/playwright';
import type { TestrunVitestOptions } from '@testrun/vitest';

export const ${exportPrefix}vitestOptions: TestrunVitestOptions = { project: 'web', tags: ['nightly'], batchSize: 100 };
export const ${exportPrefix}jestOptions: TestrunJestOptions = { project: 'api', statusMap: { todo: 'pending' } };
// @ts-expect-error batchSize is a number
export const ${exportPrefix}wrongVitest: TestrunVitestOptions = { batchSize: '100' };
// @ts-expect-error there is no option 'projekt'
export const ${exportPrefix}wrongJest: TestrunJestOptions = { projekt: 'api' };
export const ${exportPrefix}playwrightOptions: TestrunPlaywrightOptions = { project: 'e2e', projectLabel: 'always' };
// @ts-expect-error flushTimeout is a number
export const ${exportPrefix}wrongPlaywright: TestrunPlaywrightOptions = { flushTimeout: 'soon' };
export const ${exportPrefix}mochaOptions: TestrunMochaOptions = { project: 'unit', reporter: 'dot' };
// @ts-expect-error reporter names a reporter
export const ${exportPrefix}wrongMocha: TestrunMochaOptions = { reporter: 42 };
export const ${exportPrefix}nodeTestOptions: TestrunNodeTestOptions = { tags: ['node'] };
// @ts-expect-error tags are strings
export const ${exportPrefix}wrongNodeTest: TestrunNodeTestOptions = { tags: [1] };
`;
  return {
    'package.json': json({
      name: CONSUMER_NAME,
      version: '1.0.0',
      private: true,
      dependencies,
      devDependencies: {
        '@playwright/test': '^1.65',
        jest: '^30',
        mocha: '^11',
        typescript: '~5.9',
        vitest: '^4',
      },
    }),
    'vitest.config.mjs': `import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['vitest-tests/**/*.test.mjs'],
    reporters: ['default', '@testrun/vitest'],
  },
});
`,
    'jest.config.js': `module.exports = {
  roots: ['<rootDir>/jest-tests'],
  reporters: ['default', '@testrun/jest'],
};
`,
    'jest.config.mjs': `export default {
  roots: ['<rootDir>/jest-tests'],
  reporters: ['default', '@testrun/jest'],
};
`,
    'playwright.config.ts': `import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: './playwright-tests',
  reporter: [['list'], ['@testrun/playwright']],
});
`,
    'vitest-tests/math.test.mjs': mathTest("import { describe, expect, it } from 'vitest';\n"),
    'jest-tests/math.test.js': mathTest(''),
    // Mocha has no expect and no todo: a pending test without a function is its todo.
    'mocha-tests/math.test.js': mathTest(
      "const assert = require('node:assert/strict');\nconst expect = (actual) => ({ toBe: (expected) => assert.equal(actual, expected) });\n",
      { describe: 'describe', it: 'it', todo: "it('is to do')" },
    ),
    'node-tests/math.test.js': mathTest(
      "const assert = require('node:assert/strict');\nconst { describe, it } = require('node:test');\nconst expect = (actual) => ({ toBe: (expected) => assert.equal(actual, expected) });\n",
    ),
    // Playwright has no todo: fixme is its "not written yet", sent as skipped like todo.
    'playwright-tests/math.spec.ts': mathTest("import { expect, test } from '@playwright/test';\n", {
      describe: 'test.describe',
      it: 'test',
      todo: "test.fixme('is to do', () => {})",
    }),
    'tsconfig.json': json({
      compilerOptions: {
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: [],
      },
      // The package has no "type": .mts is an ES module, .cts a CommonJS one.
      files: ['options.mts', 'options.cts'],
    }),
    'options.mts': typesFile(''),
    'options.cts': typesFile('cjs_'),
  };
}

/**
 * The clean child environment of the test helpers, minus the npm and pnpm settings that
 * `pnpm vitest` passes down (they would configure the consumer's npm), plus the shared cache.
 */
function consumerEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env = cleanEnv(extra);
  for (const name of Object.keys(env)) {
    if (/^(npm|pnpm)_/i.test(name)) delete env[name];
  }
  env.npm_config_cache = NPM_CACHE;
  env.npm_config_update_notifier = 'false';
  return env;
}

// ---------------------------------------------------------------------------------------
// Helpers

interface Manifest {
  name: string;
  version: string;
  main?: string;
  types?: string;
  bin?: string | Record<string, string>;
  exports?: unknown;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

function packageDir(dir: PackageDir): string {
  return path.join(PACKAGES_DIR, dir);
}

function workspaceVersion(name: string): string {
  const dir = name.replace(/^@testrun\//, '') as PackageDir;
  return (JSON.parse(fs.readFileSync(path.join(packageDir(dir), 'package.json'), 'utf8')) as Manifest)
    .version;
}

/** `src/commands/serve.ts` → `commands/serve` and what tsc makes of it, for every source module of the package. */
function sourceModules(dir: PackageDir): { module: string; js: string; dts: string }[] {
  const src = path.join(packageDir(dir), 'src');
  return (fs.readdirSync(src, { recursive: true }) as string[])
    .filter((file) => /\.c?ts$/.test(file) && !/\.d\.c?ts$/.test(file))
    .map((file) => {
      const commonJs = file.endsWith('.cts');
      return {
        module: file
          .replace(/\.c?ts$/, '')
          .split(path.sep)
          .join('/'),
        js: commonJs ? '.cjs' : '.js',
        dts: commonJs ? '.d.cts' : '.d.ts',
      };
    });
}

/** Every file path in main, types, bin and exports. */
function manifestTargets(manifest: Manifest): string[] {
  const targets: string[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === 'string') targets.push(value);
    else if (value && typeof value === 'object') Object.values(value).forEach(collect);
  };
  collect([manifest.main, manifest.types, manifest.bin, manifest.exports]);
  return targets;
}

async function tarList(tarball: string): Promise<string[]> {
  const listing = succeeded(await run('tar', ['-tzf', tarball]), `tar -tzf ${tarball}`);
  return listing.stdout.split('\n').filter(Boolean);
}

async function tarFile(tarball: string, file: string): Promise<string> {
  return succeeded(await run('tar', ['-xzOf', tarball, file]), `tar -xzOf ${tarball} ${file}`).stdout;
}

function writeFiles(root: string, files: Record<string, string>): void {
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(root, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

function byCase(a: { testCase: string }, b: { testCase: string }): number {
  return a.testCase < b.testCase ? -1 : a.testCase > b.testCase ? 1 : 0;
}

function succeeded(outcome: RunOutcome, what: string): RunOutcome {
  if (outcome.code !== 0) {
    throw new Error(`${what} exited ${outcome.code}\n${outcome.stdout}\n${outcome.stderr}`);
  }
  return outcome;
}
