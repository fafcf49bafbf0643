import fs from 'node:fs';
import path from 'node:path';
import { parseShard, planKeyProblem, type Shard, userAgent } from '@testrun/core';
import {
  describePlan,
  filesToPlan,
  type LocalFile,
  type PlannedFile,
  planForShard,
  type ShardPlan,
} from '@testrun/core/plan';
import { TLS_FLAGS } from '../cli-config.js';
import { defineCommand, type Output, UsageError } from '../command.js';
import { findReports } from '../reports/find-reports.js';

const FORMATS = ['paths', 'json', 'playwright'] as const;
type Format = (typeof FORMATS)[number];

export const plan = defineCommand({
  name: 'plan',
  positionals: '<files or globs…>',
  about: `
Prints the test files of one shard, one a line, for any runner: the shards of a CI
build split the files by how long each took in the service's recent runs, so that
they end together, and every shard gets the same plan from the service.

  files=$(npx @testrun/cli plan --shard 2/4 'test/**/*.test.ts')
  npx vitest run $files

Give every shard the same files (the same globs, from the same folder): a shard
given other files than its plan's is told so and exits 1. Run it where the runner
runs (or give --root), so that files are named as the reporters name them. The
shards of one build share the plan by its key: the CI build (GitHub Actions, GitLab,
CircleCI, Buildkite, Jenkins, Azure Pipelines, Bitbucket, Travis), else the run in
TESTRUN_RUN_ID, else --plan-key. Without the service's plan (it cannot be reached,
makes none, or no key is known) every shard splits the files by size alike, and
one line says so. Jest reads paths as patterns: run it with --runTestsByPath;
Playwright too: use --format playwright. How to shard each runner:
https://github.com/testrun-dev/testrun/blob/main/docs/sharding.md

Reads TESTRUN_API_KEY and TESTRUN_BASE_URL from the environment.
`,
  flags: {
    shard: {
      type: 'string',
      value: '<i>/<n>',
      help: 'the shard to print, e.g. 2/4 (default: TESTRUN_SHARD)',
    },
    project: { type: 'string', value: '<name>', option: 'project' },
    'plan-key': { type: 'string', value: '<key>', option: 'planKey' },
    root: {
      type: 'string',
      value: '<dir>',
      help: 'the folder the runner names files from, its root (default: the current directory)',
    },
    format: {
      type: 'string',
      value: '<paths|json|playwright>',
      default: 'paths',
      help: 'paths: one a line, relative to the current directory; json: the plan with weights; playwright: an exact filter per file for playwright test',
    },
    branch: {
      type: 'string',
      value: '<name>',
      help: "the branch being built, whose runs' durations come first (default: CI's)",
    },
    'default-branch': {
      type: 'string',
      value: '<name>',
      help: "the branch whose durations come next (default: CI's, where it says it)",
    },
    ...TLS_FLAGS,
  },
  run: async ({ values, options, positionals, output }) => {
    const shard = shardOf(values.shard ?? process.env.TESTRUN_SHARD);
    const format = formatOf(values.format);
    const key = values['plan-key']?.trim();
    if (key !== undefined && planKeyProblem(key)) throw new UsageError(`--plan-key ${planKeyProblem(key)}`);
    if (positionals.length === 0) {
      throw new UsageError("give the test files to split, e.g. testrun plan --shard 1/4 'test/**/*.test.ts'");
    }
    const cwd = process.cwd();
    const root = path.resolve(cwd, values.root ?? '.');
    if (!isDirectory(root)) throw new UsageError(`--root ${values.root}: no such folder`);
    const found = await findReports(positionals, cwd);
    if (found.unmatched.length > 0) {
      throw new UsageError(`no file matches ${found.unmatched.join(', ')}: no shard would run it`);
    }
    const missing = found.files.filter(({ path: file }) => !isFile(file));
    if (missing.length > 0) {
      throw new UsageError(`no such file: ${missing.map(({ shownAs }) => shownAs).join(', ')}`);
    }
    const files = filesToPlan(
      found.files.map(({ path: file }) => file),
      root,
    );
    const { plan, key: usedKey } = await planForShard({
      files,
      shard,
      options,
      env: process.env,
      rootDir: root,
      userAgent: userAgent('cli'),
      key,
      branch: values.branch?.trim() || undefined,
      defaultBranch: values['default-branch']?.trim() || undefined,
    });
    if (plan.kind === 'differs') {
      output.error(plan.message);
      return 1;
    }
    output.error(describePlan(plan, shard, files.length));
    const byName = new Map(files.map((file) => [file.file, file]));
    const mine = plan.files.map((planned) => ({ planned, local: byName.get(planned.file)! }));
    if (format === 'paths')
      warnOfPatterns(
        mine.map(({ local }) => local),
        files,
        cwd,
        output,
      );
    output.out(formatted(format, mine, { plan, shard, key: usedKey, cwd }));
    return 0;
  },
});

function shardOf(text: string | undefined): Shard {
  if (text === undefined || text.trim() === '') {
    throw new UsageError('--shard is required (or TESTRUN_SHARD): which shard to print, e.g. 2/4');
  }
  const shard = parseShard(text);
  if ('problem' in shard) throw new UsageError(`--shard ${shard.problem}`);
  return shard;
}

function formatOf(text: string): Format {
  const format = text.trim().toLowerCase();
  if (!(FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`--format must be ${FORMATS.join(', ')}; got "${text}"`);
  }
  return format as Format;
}

type Mine = { planned: PlannedFile; local: LocalFile }[];

function formatted(
  format: Format,
  mine: Mine,
  {
    plan,
    shard,
    key,
    cwd,
  }: { plan: Exclude<ShardPlan, { kind: 'differs' }>; shard: Shard; key: string | undefined; cwd: string },
): string {
  if (format === 'json') {
    const shards = plan.kind === 'service' ? plan.plan.shards : plan.shards;
    return `${JSON.stringify(
      {
        shard: `${shard.index}/${shard.count}`,
        source: plan.kind,
        key: plan.kind === 'service' ? plan.plan.key : key,
        basis: plan.kind === 'service' ? plan.plan.basis : 'sizes',
        ...(plan.kind === 'sizes' && { reason: plan.reason }),
        shards,
        files: mine.map(({ planned, local }) => ({
          path: shownPath(local.path, cwd),
          file: planned.file,
          weight: planned.weight,
          from: planned.from,
        })),
      },
      null,
      2,
    )}\n`;
  }
  const lines = mine.map(({ local }) =>
    format === 'playwright' ? exactPlaywrightFilter(local.path) : shownPath(local.path, cwd),
  );
  return lines.map((line) => `${line}\n`).join('');
}

/** Relative to where the command runs, as a runner takes it; a file elsewhere, absolute. */
function shownPath(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
}

/**
 * Playwright takes each argument as a regular expression matched anywhere in a file's
 * absolute path, so `login.spec.ts` also runs `admin/login.spec.ts`: the file's whole path,
 * escaped and anchored, matches that file alone.
 */
export function exactPlaywrightFilter(file: string): string {
  const posix = file.split(path.sep).join('/');
  return `/^${posix.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$/`;
}

/**
 * Vitest takes a path as a part of the paths it runs, and Jest (without --runTestsByPath) and
 * Playwright as a pattern: a printed path inside another file's path runs that file in this
 * shard too. Said, with the way out, rather than left to run a file twice.
 */
function warnOfPatterns(
  mine: readonly LocalFile[],
  all: readonly LocalFile[],
  cwd: string,
  output: Output,
): void {
  if (mine.length * all.length > 20_000_000) return;
  const shown = all.map((file) => ({ file, lower: shownPath(file.path, cwd).toLowerCase() }));
  const found: string[] = [];
  for (const file of mine) {
    const name = shownPath(file.path, cwd).toLowerCase();
    const inside = shown.find((other) => other.file !== file && other.lower.includes(name));
    if (inside) found.push(`${shownPath(file.path, cwd)} is part of ${shownPath(inside.file.path, cwd)}`);
  }
  if (found.length === 0) return;
  output.error(
    `${found.slice(0, 3).join('; ')}${found.length > 3 ? ` (and ${found.length - 3} more)` : ''}: a runner that reads a path as a pattern runs both. Jest: add --runTestsByPath; Playwright: --format playwright; Vitest: its sequencer (docs/sharding.md). Mocha and node --test take paths as they are.`,
  );
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
