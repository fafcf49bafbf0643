// Part of the build (scripts/build.mjs), after `tsc -b`: @testrun/core's dist/index.js becomes one
// file, beside the bundles only some processes load (the CI summary, the attachments' stage and
// what it shares with index.js, shard plans).
// tsc's one module per source file costs the test framework's main process several times the
// CPU of one bundled file to load
// (bench/README.md#7-fixed-cost-per-run-fixed-costmjs-and-the-http-stack-alone-transport-childmjs).
// p-queue (with eventemitter3) is bundled in for the same reason, its licence kept; undici and
// env-ci stay dependencies, loaded only when a run needs them. The declarations stay tsc's.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';
import { asciiOnly } from './ascii-only.mjs';
import { builtinsTaken } from './builtins-taken.mjs';

const repo = new URL('../', import.meta.url).pathname;
const coreSources = path.join(repo, 'packages/core/src');

// The licences of what is bundled in, as their MIT licences ask, at the end of the file.
const requireFromCore = createRequire(new URL('../packages/core/package.json', import.meta.url));
const requireFromPQueue = createRequire(requireFromCore.resolve('p-queue'));
const bundled = [
  ['p-queue', requireFromCore],
  ['eventemitter3', requireFromPQueue],
  ['p-timeout', requireFromPQueue],
];
const licences = bundled.map(([name, require]) => {
  const dir = packageDir(require.resolve(name));
  const file = fs.readdirSync(dir).find((entry) => /^licen[cs]e/i.test(entry));
  return `${name}:\n${fs.readFileSync(path.join(dir, file), 'utf8').trim()}`;
});

function coreVersion() {
  return JSON.parse(fs.readFileSync(path.join(repo, 'packages/core/package.json'), 'utf8')).version;
}

/** The folder of the package a resolved file belongs to (their exports maps hide package.json). */
function packageDir(file) {
  let dir = path.dirname(file);
  // dist/cjs/package.json (signal-exit's) only sets the module type: the package's own has a name.
  while (!hasName(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return dir;
}

function hasName(manifest) {
  return fs.existsSync(manifest) && Boolean(JSON.parse(fs.readFileSync(manifest, 'utf8')).name);
}

/**
 * The CI summary (src/summary/) is a bundle of its own, dist/summary/index.js, which the main
 * bundle imports only when a summary is written (run-end/summary-hand-off.ts): a run without
 * one parses none of it. It imports only types from the rest of core, so nothing is bundled twice.
 */
const summaryApart = {
  name: 'summary-apart',
  setup(build) {
    build.onResolve({ filter: /\/summary\/index\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}src${path.sep}summary${path.sep}`)
        ? undefined
        : { path: './summary/index.js', external: true },
    );
  },
};

/**
 * Quarantine (src/quarantine/) is a bundle of its own too, dist/quarantine/index.js, imported
 * only once a test failed in a run whose service announced quarantine
 * (run-end/quarantine-hand-off.ts), or by `testrun run` when its command's reporters had
 * failures. It too imports only types from the rest of core.
 */
const quarantineApart = {
  name: 'quarantine-apart',
  setup(build) {
    build.onResolve({ filter: /\/quarantine\/index\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}src${path.sep}quarantine${path.sep}`)
        ? undefined
        : { path: './quarantine/index.js', external: true },
    );
  },
};

/**
 * Writes packages/core/dist/index.js, beside the bundles only some processes load: every
 * kilobyte of index.js is parsed by every run (13 KB more cost ~6 ms of CPU at load, measured).
 * dist/summary/index.js is the CI summary and dist/quarantine/index.js quarantine (above).
 * dist/attachments.js is the attachments' stage, which a run imports only when it has a file
 * to send (docs/design/attachments.md):
 * what it shares with index.js is in one shared file (dist/shared-<hash>.js) that index.js
 * imports, so there is one copy of every module: one set of timers taken at load (clock.ts),
 * one p-queue. dist/plan.js (`@testrun/core/plan`, shard plans) holds what only `testrun plan`
 * and the sequencers use, with its own copy of what it needs from core.
 */
export async function bundleCore() {
  const dist = path.join(repo, 'packages/core/dist');
  for (const name of fs.existsSync(dist) ? fs.readdirSync(dist) : []) {
    if (/^shared-.*\.js$/.test(name)) fs.rmSync(path.join(dist, name));
  }
  for (const apart of ['summary', 'quarantine']) {
    await build({
      entryPoints: [path.join(repo, `packages/core/src/${apart}/index.ts`)],
      outfile: path.join(dist, `${apart}/index.js`),
      plugins: [builtinsTaken(coreSources), asciiOnly],
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20.19',
      logLevel: 'warning',
    });
  }
  await bundle(
    {
      entryPoints: {
        index: path.join(repo, 'packages/core/src/index.ts'),
        attachments: path.join(repo, 'packages/core/src/attachments/index.ts'),
      },
      outdir: dist,
      splitting: true,
      chunkNames: 'shared-[hash]',
    },
    true,
  );
  await bundle(
    {
      entryPoints: [path.join(repo, 'packages/core/src/plan/index.ts')],
      outfile: path.join(dist, 'plan.js'),
    },
    false,
  );
}

/** Core's sources bundled as `where` says; `withPQueue`: the bundle holds p-queue (whose licence goes in). */
async function bundle(where, withPQueue) {
  await build({
    define: { TESTRUN_CORE_VERSION: JSON.stringify(coreVersion()) },
    ...where,
    plugins: [summaryApart, quarantineApart, builtinsTaken(coreSources), asciiOnly],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    external: ['undici', 'undici/*', 'env-ci'],
    // Bundled code (p-queue schedules its next task with queueMicrotask) gets the timers and
    // task queue core took when it loaded, not whatever a test has put on the globals since
    // (clock.ts; docs/design/runners-in-process.md#fake-timers-never-restored).
    inject: [path.join(repo, 'packages/core/src/clock.ts')],
    legalComments: 'inline',
    ...(withPQueue && {
      footer: {
        js: `/*!\n * Bundled in: ${bundled.map(([name]) => name).join(', ')}.\n\n${licences.join('\n\n')}\n */`,
      },
    }),
    logLevel: 'warning',
  });
}
