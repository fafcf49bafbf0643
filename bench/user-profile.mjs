// Where figure 7c's fixed cost goes: a runner's one-file suite in its user-cost project (packed
// tarballs installed by npm; prepared here when missing), its main process run under
// `--cpu-prof` (Node 20 refuses it in NODE_OPTIONS, so workers are not profiled), without our reporter ("off") and with it against a service that announces
// nothing ("bare"), in ABBA order. Prints the self time per package and per function as the
// median per variant and the difference. The main thread only: V8's compiler and GC threads are
// in figure 7c, not here.
// `node bench/user-profile.mjs mocha [rounds]`; profiles stay in bench/.generated/user-profiles/.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { summarizeProfile } from './lib/cpuprofile.mjs';
import { startServer } from './lib/server.mjs';
import { median } from './lib/stats.mjs';
import { PROJECTS, prepare, workDir } from './user-cost.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const profiles = path.join(here, '.generated', 'user-profiles');

/** Self ms per package and per function over every profile in `dir`. */
function selfTimes(dir) {
  const packages = {};
  const functions = {};
  for (const file of fs.readdirSync(dir)) {
    const summary = summarizeProfile(path.join(dir, file), { top: 100_000 });
    for (const { name, selfMs } of summary.packages) packages[name] = (packages[name] ?? 0) + selfMs;
    for (const { name, file: where, line, selfMs } of summary.functions) {
      const key = `${name} ${where}:${line}`;
      functions[key] = (functions[key] ?? 0) + selfMs;
    }
  }
  return { packages, functions };
}

function table(title, samples, top) {
  const names = new Set(samples.flatMap(({ variant, times }) => (variant ? Object.keys(times) : [])));
  const rows = [...names].map((name) => {
    const of = (variant) =>
      median(samples.filter((s) => s.variant === variant).map((s) => s.times[name] ?? 0));
    return { [title]: name, offMs: of('off'), bareMs: of('bare'), deltaMs: of('bare') - of('off') };
  });
  console.table(rows.sort((a, b) => b.deltaMs - a.deltaMs).slice(0, top));
}

const runner = process.argv[2] ?? 'mocha';
if (runner === 'node-test') {
  // Its only profile would be the test file's process, where no code of ours runs.
  console.error(
    "node:test runs its reporters in its parent process, whose --cpu-prof profile Node 20 does not write: node bench/node-test-parent.mjs measures that process's CPU instead.",
  );
  process.exit(2);
}
const rounds = Number(process.argv[3] ?? 6);
const dir = path.join(workDir, runner);
if (!fs.existsSync(path.join(dir, 'node_modules'))) prepare([runner], console.log);
const server = await startServer({ specOnly: true });
const packageSamples = [];
const functionSamples = [];
try {
  for (let round = 0; round < rounds; round += 1) {
    for (const variant of round % 2 === 0 ? ['off', 'bare'] : ['bare', 'off']) {
      const out = path.join(profiles, runner, `${variant}-${round}`);
      fs.rmSync(out, { recursive: true, force: true });
      const [command, ...args] = PROJECTS[runner].command(variant);
      const flags = ['--cpu-prof', `--cpu-prof-dir=${out}`, '--cpu-prof-interval=200'];
      const script = command === process.execPath ? [] : [fs.realpathSync(path.join(dir, command))];
      const run = spawnSync(process.execPath, [...flags, ...script, ...args], {
        cwd: dir,
        encoding: 'utf8',
        env: {
          ...process.env,
          CI: '',
          BENCH_VARIANT: variant,
          TESTRUN_API_KEY: server.apiKey,
          TESTRUN_BASE_URL: server.url,
          TESTRUN_SPOOL_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'testrun-user-profile-')),
        },
      });
      if (run.status !== 0)
        throw new Error(`${runner} ${variant} exited ${run.status}:\n${run.stdout}${run.stderr}`);
      const { packages, functions } = selfTimes(out);
      packageSamples.push({ variant, times: packages });
      functionSamples.push({ variant, times: functions });
    }
  }
} finally {
  await server.close();
}
console.log(
  `${runner}: main-thread self time, median of ${rounds} runs each (profiles in ${path.relative(process.cwd(), profiles)})`,
);
table('package', packageSamples, 20);
table('function', functionSamples, 40);
