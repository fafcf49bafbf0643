// Part of the build (scripts/build.mjs), after `tsc -b`: @testrun/webdriverio's Cucumber
// formatter (dist/cucumber-formatter.js) becomes one file with @testrun/cucumber's mapping of
// Cucumber's messages in it (`@testrun/cucumber/scenarios`), so the published package depends
// on core alone. A dependency on @testrun/cucumber brought that package's optional peer on
// @cucumber/cucumber into every WebdriverIO project, where npm moved the project's own Cucumber
// to satisfy it (docs/design/installing.md). The mapping's source stays in one place,
// packages/cucumber/src; the declarations stay tsc's.
import path from 'node:path';
import { build } from 'esbuild';

const repo = new URL('../', import.meta.url).pathname;

/** Writes packages/webdriverio/dist/cucumber-formatter.js with the mapping bundled in. */
export async function bundleWebdriverioCucumber() {
  await build({
    entryPoints: [path.join(repo, 'packages/webdriverio/src/cucumber-formatter.ts')],
    outfile: path.join(repo, 'packages/webdriverio/dist/cucumber-formatter.js'),
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    // Core is the package's one dependency; everything else it imports is bundled, from source.
    external: ['@testrun/core'],
    conditions: ['source'],
    logLevel: 'warning',
  });
}
