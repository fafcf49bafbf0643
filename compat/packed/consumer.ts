import fs from 'node:fs';
import path from 'node:path';
import {
  jsonFile as json,
  npmEnv,
  oncePerRun,
  oncePerRunFolder,
  PUBLISHED_PACKAGES as PACKAGES,
  type PackageDir,
  packageName,
  packTarballs,
  reporterEnv,
  runProcess as run,
  succeeded,
  type TestServer,
  writeFiles,
} from '@testrun/test-utils';
import { docBlock } from '../../test/doc-blocks.js';

// What a user gets from the registry: each package packed the way `pnpm release` publishes
// it, installed with plain npm into a project outside the workspace (no workspace links, no
// hoisted dev dependencies). The files of compat/packed/ share one pack and one install a
// `vitest run` (oncePerRun): the first file to need them makes them, the others wait. Needs
// `pnpm build` first and the npm registry for vitest, jest, @playwright/test, mocha, jasmine,
// newman, testcafe, @cucumber/cucumber, typescript and @types/node.

export const CONSUMER_NAME = 'packed-consumer';
export const INSTALL_TIMEOUT_MS = 300_000;

/** This run's tarball of every published package, packed by the first file that asks. */
export function packedTarballs(): Promise<Record<PackageDir, string>> {
  return oncePerRun('packed-tarballs', () => packTarballs(oncePerRunFolder('tarballs')), 120_000);
}

export interface InstalledConsumer {
  /** The project's folder: its node_modules, a folder of its own for each documented run. */
  dir: string;
  tarballs: Record<PackageDir, string>;
  /** What npm printed on stderr: a peer it refused or moved shows there. */
  installStderr: string;
}

let installed: InstalledConsumer | undefined;

/** The consumer project with the tarballs installed by npm, by the first file that asks. */
export async function installedConsumer(): Promise<InstalledConsumer> {
  const tarballs = await packedTarballs();
  installed = await oncePerRun(
    'installed-consumer',
    async () => {
      const dir = oncePerRunFolder('project');
      writeFiles(dir, consumerProject(tarballs));
      const install = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], {
        cwd: dir,
        env: npmEnv(),
        timeoutMs: INSTALL_TIMEOUT_MS - 10_000,
      });
      succeeded(install, 'npm install');
      return { dir, tarballs, installStderr: install.stderr };
    },
    INSTALL_TIMEOUT_MS,
  );
  return installed;
}

/** The installed project's folder; installedConsumer() first. */
export function consumerDir(): string {
  if (!installed) throw new Error('consumerDir() before installedConsumer(): await it in beforeAll');
  return installed.dir;
}

/** A command the project installed (node_modules/.bin). */
export function bin(name: string): string {
  return path.join(consumerDir(), 'node_modules', '.bin', name);
}

/** Scratch folders (spools, summaries, outputs) a file made: removed by its afterAll(removeScratch). */
const scratch: string[] = [];

export function scratchDir(prefix: string): string {
  return removeLater(fs.mkdtempSync(path.join(path.dirname(consumerDir()), `${prefix}-`)));
}

/** `dir`, to be removed by removeScratch (a spool folder reporterEnv made). */
export function removeLater(dir: string): string {
  scratch.push(dir);
  return dir;
}

export function removeScratch(): void {
  for (const dir of scratch.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** A reporter's environment for `server`, as the installed project runs it (npm's), its spool removed with the scratch. */
export function envFor(server: TestServer, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = reporterEnv(server, extra);
  removeLater(env.TESTRUN_SPOOL_DIR!);
  return npmEnv(env);
}

/** Where a run writes its CI summary (TESTRUN_SUMMARY): a fresh file in the scratch. */
export function summaryFile(): string {
  return path.join(scratchDir('summary'), 'step-summary.md');
}

/** The consumer project's files, its dependencies the packed `tarballs`: what `npm install` installs. */
function consumerProject(tarballs: Record<PackageDir, string>): Record<string, string> {
  const dependencies = {
    ...Object.fromEntries(PACKAGES.map((dir) => [packageName(dir), `file:${tarballs[dir]}`])),
    // TestCafe loads `-r testrun` as testcafe-reporter-testrun: the README installs it under that name too.
    'testcafe-reporter-testrun': `file:${tarballs.testcafe}`,
  };
  // Types only, so both files run under tsc alone. The @ts-expect-error lines fail to
  // compile if an import resolved to nothing (an `any` accepts everything).
  const typesFile = (exportPrefix: string) => `import type { TestrunJasmineOptions } from '@testrun/jasmine';
import type { TestrunJestOptions } from '@testrun/jest';
import type { TestrunMochaOptions } from '@testrun/mocha';
import type { TestrunNodeTestOptions } from '@testrun/node-test';
import type { TestrunPlaywrightOptions } from '@testrun/playwright';
import type { TestrunVitestOptions } from '@testrun/vitest';
import type { TestrunSequencer, testrunSequencer } from '@testrun/vitest/sequencer';
import type JestSequencer from '@testrun/jest/sequencer';

// The sequencers' entry points (docs/sharding.md) resolve through the published exports maps.
export type ${exportPrefix}Sequencers = [typeof TestrunSequencer, ReturnType<typeof testrunSequencer>, typeof JestSequencer];
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
export const ${exportPrefix}jasmineOptions: TestrunJasmineOptions = { project: 'specs', failOnError: true };
// @ts-expect-error failOnError is a boolean
export const ${exportPrefix}wrongJasmine: TestrunJasmineOptions = { failOnError: 'yes' };
export const ${exportPrefix}nodeTestOptions: TestrunNodeTestOptions = { tags: ['node'] };
// @ts-expect-error tags are strings
export const ${exportPrefix}wrongNodeTest: TestrunNodeTestOptions = { tags: [1] };
export const ${exportPrefix}cucumberOptions: import('@testrun/cucumber').TestrunCucumberOptions = { formatter: 'pretty' };
export const ${exportPrefix}webdriverioOptions: import('@testrun/webdriverio').TestrunWebdriverioOptions = { project: 'e2e', completeRun: true };
export const ${exportPrefix}testcafeOptions: import('@testrun/testcafe').TestrunTestCafeOptions = { project: 'e2e', projectLabel: 'always' };
// @ts-expect-error projectLabel is auto, always or never
export const ${exportPrefix}wrongTestcafe: import('@testrun/testcafe').TestrunTestCafeOptions = { projectLabel: 'sometimes' };
export const ${exportPrefix}newmanOptions: import('@testrun/newman-reporter-testrun').TestrunNewmanOptions = { project: 'api', failOnError: true };
// @ts-expect-error maxRetries is a number
export const ${exportPrefix}wrongNewman: import('@testrun/newman-reporter-testrun').TestrunNewmanOptions = { maxRetries: 'many' };
// @ts-expect-error completeRun is a boolean or a request
export const ${exportPrefix}wrongWebdriverio: import('@testrun/webdriverio').TestrunWebdriverioOptions = { completeRun: 'yes' };
`;
  // The READMEs' code that is a program of its own: run with Node (it is JavaScript as
  // written) and type-checked as the TypeScript its fence says it is, with Node's types.
  const readmeCode = Object.entries({
    'core-readme-run-reporter': docBlock('core-readme-run-reporter'),
    'server-readme-use': docBlock('server-readme-use'),
    'cli-readme-programmatic-use': docBlock('cli-readme-programmatic-use'),
  }).flatMap(([name, code]) => [
    [`${README_CODE_DIR}/${name}.mjs`, code],
    [`${README_CODE_DIR}/${name}.mts`, code],
  ]);
  return {
    'package.json': json({
      name: CONSUMER_NAME,
      version: '1.0.0',
      private: true,
      dependencies,
      devDependencies: {
        '@cucumber/cucumber': '^12',
        '@playwright/test': '^1.65',
        '@types/node': '^20',
        jasmine: '^5',
        jest: '^30',
        mocha: '^11',
        newman: '^6',
        testcafe: '^3',
        typescript: '~5.9',
        vitest: '^4',
      },
    }),
    'tsconfig.json': json({
      compilerOptions: { ...TSC_OPTIONS, types: [] },
      // The package has no "type": .mts is an ES module, .cts a CommonJS one.
      files: ['options.mts', 'options.cts'],
    }),
    'options.mts': typesFile(''),
    'options.cts': typesFile('cjs_'),
    ...Object.fromEntries(readmeCode),
    [`${README_CODE_DIR}/tsconfig.json`]: json({
      compilerOptions: { ...TSC_OPTIONS, types: ['node'] },
      include: ['*.mts'],
    }),
  };
}

export const TSC_OPTIONS = {
  module: 'nodenext',
  moduleResolution: 'nodenext',
  target: 'es2022',
  strict: true,
  noEmit: true,
  skipLibCheck: true,
};

/** Where the READMEs' programs (core, server, cli) are written in the consumer project. */
export const README_CODE_DIR = 'readme-code';
