// Part of the build (scripts/build.mjs), after `tsc -b`: @testrun/core's dist/index.js becomes one
// file, beside the attachments' (loaded only when a run has files) and what the two share.
// tsc's one module per source file costs the test framework's main process several times
// the CPU of one bundled file to load (bench/README.md, "Fixed cost"). p-queue (with
// eventemitter3) is bundled in for the same reason, its licence kept; undici and env-ci stay
// dependencies, loaded only when a run needs them. The declarations stay tsc's.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';

const repo = new URL('../', import.meta.url).pathname;

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
 * Writes packages/core/dist/index.js, and dist/attachments.js: the attachments' stage, which a
 * run imports only when it has a file to send (docs/design.md, "Attachments"). What both use
 * is in one shared file (dist/shared-<hash>.js) that index.js imports, so there is one copy of
 * every module: one set of timers taken at load (clock.ts), one p-queue.
 */
export async function bundleCore() {
  const dist = path.join(repo, 'packages/core/dist');
  for (const name of fs.existsSync(dist) ? fs.readdirSync(dist) : []) {
    if (/^shared-.*\.js$/.test(name)) fs.rmSync(path.join(dist, name));
  }
  await build({
    entryPoints: {
      index: path.join(repo, 'packages/core/src/index.ts'),
      attachments: path.join(repo, 'packages/core/src/attachments/index.ts'),
    },
    outdir: dist,
    splitting: true,
    chunkNames: 'shared-[hash]',
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    external: ['undici', 'undici/*', 'env-ci'],
    // Bundled code (p-queue schedules its next task with queueMicrotask) gets the timers and
    // task queue core took when it loaded, not whatever a test has put on the globals since
    // (clock.ts; docs/design.md, "Runners that share the test process").
    inject: [path.join(repo, 'packages/core/src/clock.ts')],
    legalComments: 'inline',
    footer: {
      js: `/*!\n * Bundled in: ${bundled.map(([name]) => name).join(', ')}.\n\n${licences.join('\n\n')}\n */`,
    },
    logLevel: 'warning',
  });
}
