// Builds every package: `tsc -b` (each package's dist, one module per file, with its
// declarations), then core's bundles, each reporter's (its entry modules, one file each) and
// @testrun/webdriverio's Cucumber formatter's. `pnpm build` runs it, and so does every test run
// before its first test (vitest.config.ts, globalSetup): tests that spawn a framework or
// the CLI run the build, and it must be the source under test. Up to date, it takes well
// under a second (tsc -b is incremental).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ADAPTERS, bundleAdapters } from './bundle-adapters.mjs';
import { bundleCore } from './bundle-core.mjs';
import { bundleWebdriverioCucumber } from './bundle-webdriverio.mjs';

const repo = new URL('../', import.meta.url).pathname;
// Core first, the CLI last: tsc -b builds what each references first either way.
const PACKAGES = ['core', 'server', ...ADAPTERS, 'cli'];

export async function build() {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const projects = PACKAGES.map((name) => `packages/${name}`);
  // tsc -b trusts its build info, kept beside each package's tsconfig: a dist removed by hand
  // would stay missing. Rebuilt from scratch then.
  const distMissing = projects.some((dir) => !fs.existsSync(path.join(repo, dir, 'dist', 'index.d.ts')));
  const args = [tsc, '-b', ...(distMissing ? ['--force'] : []), ...projects];
  execFileSync(process.execPath, args, { cwd: repo, stdio: 'inherit' });
  await Promise.all([bundleCore(), bundleAdapters(), bundleWebdriverioCucumber()]);
}

/** Vitest's globalSetup. */
export default build;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await build();
