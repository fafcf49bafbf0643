import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from '@testrun/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { exactPlaywrightFilter, plan } from '../src/commands/plan.js';

// `testrun plan` in this process: how it is called wrong, and what it prints without the
// service. Against a real server, with real runners: e2e/planned-shards.test.ts.

function suite(files: Record<string, number>): string {
  const dir = tempDir('testrun-plan-cli-');
  for (const [name, size] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), 'x'.repeat(size));
  }
  return dir;
}

async function run(args: string[]) {
  let stdout = '';
  let stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((text) => {
    stdout += String(text);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((text) => {
    stderr += String(text);
    return true;
  });
  try {
    return { code: await plan.run(args), stdout, stderr };
  } finally {
    vi.restoreAllMocks();
  }
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('testrun plan', () => {
  const dir = suite({ 'a.test.js': 50, 'b.test.js': 40, 'sub/a.test.js': 30, 'c.test.js': 20 });
  const at = (name: string) => path.join(dir, name);

  it.each([
    [
      [at('a.test.js')],
      /^testrun plan: --shard is required \(or TESTRUN_SHARD\): which shard to print, e\.g\. 2\/4\n/,
    ],
    [
      ['--shard', '3/2', at('a.test.js')],
      /^testrun plan: --shard must have an index from 1 to its count, got "3\/2"\n/,
    ],
    [
      ['--shard', '1/2'],
      /^testrun plan: give the test files to split, e\.g\. testrun plan --shard 1\/4 'test\/\*\*\/\*\.test\.ts'\n/,
    ],
    [
      ['--shard', '1/2', `${dir}/*.spec.js`],
      /^testrun plan: no file matches .*\*\.spec\.js: no shard would run it\n/,
    ],
    [['--shard', '1/2', at('gone.test.js')], /^testrun plan: no such file: .*gone\.test\.js\n/],
    [
      ['--shard', '1/2', '--format', 'xml', at('a.test.js')],
      /^testrun plan: --format must be paths, json, playwright; got "xml"\n/,
    ],
    [
      ['--shard', '1/2', '--plan-key', 'naïve', at('a.test.js')],
      /^testrun plan: --plan-key must be 1 to 200 visible ASCII/,
    ],
  ])('exits 2 on %j, naming the problem and printing no file', async (args, message) => {
    vi.stubEnv('TESTRUN_SHARD', '');
    const { code, stdout, stderr } = await run(args);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(message);
    expect(stderr).toContain('Usage: testrun plan <files or globs…> [options]');
  });

  it("splits by size without a key, every file in one of the shards, and warns of a path inside another's", async () => {
    vi.stubEnv('TESTRUN_API_KEY', '');
    vi.stubEnv('TESTRUN_SHARD', '2/2');
    // Where the runner runs, as a CI step does (and put back: this process runs other files too).
    const cwd = process.cwd();
    process.chdir(dir);
    let shards: Awaited<ReturnType<typeof run>>[];
    try {
      shards = [await run(['--shard', '1/2', '**/*.test.js']), await run(['./*.test.js', 'sub/a.test.js'])];
    } finally {
      process.chdir(cwd);
    }
    for (const { code } of shards) expect(code).toBe(0);
    const relative = (name: string) => name;
    expect(shards.map(({ stdout }) => stdout)).toEqual([
      `${relative('a.test.js')}\n${relative('c.test.js')}\n`,
      `${relative('b.test.js')}\n${relative('sub/a.test.js')}\n`,
    ]);
    expect(shards[0]!.stderr).toBe(
      `testrun plan: TESTRUN_API_KEY is not set: split by file size, as every shard that cannot have the service's plan does; shard 1/2 runs 2 files of 4\n` +
        `testrun plan: ${relative('a.test.js')} is part of ${relative('sub/a.test.js')}: a runner that reads a path as a pattern runs both. Jest: add --runTestsByPath; Playwright: --format playwright; Vitest: its sequencer (docs/sharding.md). Mocha and node --test take paths as they are.\n`,
    );
  });

  it('splits by size when the service cannot be reached, and says so in one line', async () => {
    vi.stubEnv('TESTRUN_API_KEY', 'key');
    vi.stubEnv('TESTRUN_BASE_URL', 'http://127.0.0.1:9');
    const { code, stdout, stderr } = await run([
      '--shard',
      '2/2',
      '--plan-key',
      'k',
      '--format',
      'json',
      '--root',
      dir,
      `${dir}/**/*.test.js`,
    ]);
    expect(code).toBe(0);
    expect(stderr).toMatch(
      /^testrun plan: no plan from the service: POST http:\/\/127\.0\.0\.1:9\/api\/v1\/plans failed: ECONNREFUSED .*: split by file size, as every shard that cannot have the service's plan does; shard 2\/2 runs 2 files of 4\n$/,
    );
    expect(JSON.parse(stdout)).toMatchObject({
      source: 'sizes',
      key: 'k',
      shards: [
        { shard: 1, weight: 70, fileCount: 2 },
        { shard: 2, weight: 70, fileCount: 2 },
      ],
      files: [
        { file: 'b.test.js', weight: 40, from: 'size' },
        { file: 'sub/a.test.js', weight: 30, from: 'size' },
      ],
    });
  });

  it('prints an exact filter per file for Playwright', async () => {
    vi.stubEnv('TESTRUN_API_KEY', '');
    const { stdout } = await run([
      '--shard',
      '1/2',
      '--format',
      'playwright',
      at('a.test.js'),
      at('b.test.js'),
    ]);
    expect(stdout).toBe(`${exactPlaywrightFilter(at('a.test.js'))}\n`);
  });
});

describe('exactPlaywrightFilter', () => {
  it('matches the file alone, as Playwright reads a filter', () => {
    const filter = exactPlaywrightFilter('/repo/tests/a.spec.ts');
    expect(filter).toBe('/^\\/repo\\/tests\\/a\\.spec\\.ts$/');
    // As Playwright's forceRegExp reads `/…/`.
    const regex = new RegExp(filter.slice(1, -1));
    expect(regex.test('/repo/tests/a.spec.ts')).toBe(true);
    for (const other of [
      '/repo/tests/admin/a.spec.ts',
      '/repo/tests/a.spec.tsx',
      '/repo/tests/aXspec.ts',
      '/x/repo/tests/a.spec.ts',
    ]) {
      expect(regex.test(other), other).toBe(false);
    }
  });
});
