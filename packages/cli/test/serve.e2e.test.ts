import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, startCli } from '@testrun/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';

const listening = /testrun server listening on (http:\/\/\S+)\nAPI key: (\S+)\n/;

function postJson(url: string, key: string, body: unknown) {
  return fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** A folder of its own to start in, so the default data folder (.testrun/server) is the test's alone. */
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'testrun-cli-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

describe('testrun serve', () => {
  it('serves the API with the given key, the pages open on loopback without a read key, and exits 0 on SIGTERM', async () => {
    const cli = startCli(['serve', '--port', '0', '--api-key', 'serve-test-key'], {
      env: { ...process.env, TESTRUN_READ_KEY: '' },
      cwd: await tempDir(),
    });
    const [, url = '', key] = await cli.waitForStdout(listening);
    expect(key).toBe('serve-test-key');
    expect(cli.stdout()).toContain(`Try: export TESTRUN_BASE_URL=${url} TESTRUN_API_KEY=serve-test-key`);

    const created = await postJson(`${url}/api/v1/runs`, 'serve-test-key', {
      project: 'shop',
      framework: 'vitest',
    });
    const { id } = (await created.json()) as { id: string };
    const submitted = await postJson(`${url}/api/v1/runs/${id}/results`, 'serve-test-key', {
      results: [{ testSuite: 'a.test.ts', testCase: 'works', status: 'passed', duration: 3 }],
    });
    const withOtherKey = await postJson(`${url}/api/v1/runs`, 'other', {
      project: 'shop',
      framework: 'vitest',
    });
    const page = await fetch(`${url}/`, { redirect: 'manual' });

    expect(created.status).toBe(201);
    expect(page.status).toBe(200);
    expect(submitted.status).toBe(201);
    expect(withOtherKey.status).toBe(401);

    cli.child.kill('SIGTERM');
    expect(await cli.exited()).toBe(0);
    expect(cli.stdout()).toContain('testrun server stopped');
    expect(cli.stdout()).not.toContain('Pages ask');
  });

  it('generates and prints a key when none is given, keeps nothing with --memory and says so, and exits 0 on SIGINT', async () => {
    const cwd = await tempDir();
    const cli = startCli(['serve', '--memory'], { cwd });
    const [, url, key = ''] = await cli.waitForStdout(listening);
    expect(key).toMatch(/^trk_[0-9a-f]{24}$/);

    const listed = await fetch(`${url}/api/v1/runs`, { headers: { authorization: `Bearer ${key}` } });
    expect(listed.status).toBe(200);

    cli.child.kill('SIGINT');
    expect(await cli.exited(), cli.stderr()).toBe(0);
    expect(cli.stdout()).toContain('Data: in memory only (--memory): gone when the server stops.');
    expect(await readdir(cwd)).toEqual([]);
  });

  it('keeps runs in .testrun/server where it starts, or in the --data folder, across restarts, and refuses a second server on the folder, naming the fix', async () => {
    const cwd = await tempDir();
    for (const args of [
      ['serve', '--api-key', 'k'],
      ['serve', '--api-key', 'k', '--data', join(cwd, 'kept')],
    ]) {
      const first = startCli(args, { cwd });
      const [, firstUrl] = await first.waitForStdout(listening);
      await postJson(`${firstUrl}/api/v1/runs`, 'k', { project: 'kept', framework: 'jest' });
      if (!args.includes('--data')) {
        const second = await runCli(['serve'], { cwd });
        expect(second.code).toBe(1);
        expect(second.stderr).toContain('is in use by another testrun server');
        expect(second.stderr).toContain('give this one another --data folder');
      }
      first.child.kill('SIGTERM');
      await first.exited();

      const second = startCli(args, { cwd });
      const [, secondUrl] = await second.waitForStdout(listening);
      const listed = await fetch(`${secondUrl}/api/v1/runs`, { headers: { authorization: 'Bearer k' } });
      const runs = (await listed.json()) as { project: string }[];
      second.child.kill('SIGTERM');

      const folder = args.includes('--data') ? join(cwd, 'kept') : join(cwd, '.testrun', 'server');
      expect(second.stdout()).toContain(`Data: ${folder} (1 run).`);
      expect(runs.map((run) => run.project)).toEqual(['kept']);
      expect(await second.exited()).toBe(0);
    }
  });

  it('imports an older data file given as --data once, into the folder beside it', async () => {
    const cwd = await tempDir();
    const file = join(cwd, 'runs.ndjson');
    const run = {
      id: 'old-run',
      project: 'kept',
      framework: 'jest',
      tags: [],
      createdAt: '2026-01-01T00:00:00.000Z',
    };
    await writeFile(file, `${JSON.stringify({ type: 'run', run })}\n`);
    const args = ['serve', '--api-key', 'k', '--data', file];

    const first = startCli(args, { cwd });
    await first.waitForStdout(listening);
    first.child.kill('SIGTERM');
    await first.exited();
    const second = startCli(args, { cwd });
    const [, url] = await second.waitForStdout(listening);
    const listed = await fetch(`${url}/api/v1/runs`, { headers: { authorization: 'Bearer k' } });
    // Read before stopping the server: the list is streamed, and a stopped server cuts it.
    const listedIds = ((await listed.json()) as { id: string }[]).map((stored) => stored.id);
    second.child.kill('SIGTERM');

    expect(first.stdout()).toContain(
      `Data: ${file}.d (1 run); imported 1 runs and 0 results from the older data file.`,
    );
    expect(second.stdout()).toContain(`Data: ${file}.d (1 run).`);
    expect(listedIds).toEqual(['old-run']);
    expect(await second.exited()).toBe(0);
  });

  it('exits 2 for a --keep-days that is not a number of days', async () => {
    const cli = startCli(['serve', '--keep-days', 'a month'], { cwd: await tempDir() });
    expect(await cli.exited()).toBe(2);
    expect(cli.stderr()).toContain(
      'testrun serve: --keep-days must be a number of days above 0, e.g. 30, got "a month"',
    );
  });

  it('asks for a key on the pages with --read-key, reads the API with it, and never prints it', async () => {
    const readKey = 'trk_read_only_5c1e0a';
    const cli = startCli(['serve', '--api-key', 'k', '--read-key', readKey], { cwd: await tempDir() });
    const [, url] = await cli.waitForStdout(listening);
    await cli.waitForStdout(/Pages ask for a key: the read key or the API key\.\n/);

    const page = await fetch(`${url}/`, { redirect: 'manual' });
    const withKey = await fetch(`${url}/`, { headers: { authorization: `Bearer ${readKey}` } });
    const read = await fetch(`${url}/api/v1/runs`, { headers: { authorization: `Bearer ${readKey}` } });
    const write = await postJson(`${url}/api/v1/runs`, readKey, { project: 'shop', framework: 'vitest' });
    cli.child.kill('SIGTERM');

    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe('/login?next=%2F');
    expect(withKey.status).toBe(200);
    expect(read.status).toBe(200);
    expect(write.status).toBe(403);
    expect(await cli.exited()).toBe(0);
    expect(cli.stdout() + cli.stderr()).not.toContain(readKey);
  });

  it('takes the read key from TESTRUN_READ_KEY', async () => {
    const readKey = 'trk_read_from_env_77a1';
    const cli = startCli(['serve', '--api-key', 'k'], {
      env: { ...process.env, TESTRUN_READ_KEY: readKey },
      cwd: await tempDir(),
    });
    const [, url] = await cli.waitForStdout(listening);
    const page = await fetch(`${url}/`, { headers: { authorization: `Bearer ${readKey}` } });
    const without = await fetch(`${url}/`, { redirect: 'manual' });
    cli.child.kill('SIGTERM');

    expect(page.status).toBe(200);
    expect(without.status).toBe(303);
    expect(await cli.exited()).toBe(0);
    expect(cli.stdout()).not.toContain(readKey);
  });

  it('exits 2 with the serve usage for an invalid port', async () => {
    const cli = startCli(['serve', '--port', '70000'], { cwd: await tempDir() });
    expect(await cli.exited()).toBe(2);
    expect(cli.stderr()).toContain(
      'testrun serve: --port must be a whole number from 0 to 65535, got "70000"',
    );
    expect(cli.stderr()).toContain('Usage: testrun serve');
  });

  it('exits 2 for an --abandoned-after without a unit', async () => {
    const cli = startCli(['serve', '--abandoned-after', '90'], { cwd: await tempDir() });
    expect(await cli.exited()).toBe(2);
    expect(cli.stderr()).toContain(
      'testrun serve: --abandoned-after must be a whole number with a unit, e.g. 90s, 30m or 2h, got "90"',
    );
  });

  it('announces failure-details, complete-run, read-runs, shard-plans and attachments with their limits unless started with --no-failure-details (which refuses details), --no-complete-run, --no-read-runs, --no-shard-plans or --no-attachments', async () => {
    const result = {
      testSuite: 'a.test.ts',
      testCase: 'fails',
      status: 'failed',
      duration: 3,
      details: { message: 'expected 1 to be 2' },
    };
    const answers: { extensions: unknown; attachments: unknown; resultsStatus: number }[] = [];
    for (const flags of [
      ['--max-attachment-size', '25MB', '--max-run-attachments', '500MB'],
      ['--no-failure-details'],
      [
        '--no-failure-details',
        '--no-complete-run',
        '--no-read-runs',
        '--no-shard-plans',
        '--no-attachments',
        '--no-quarantine',
      ],
    ]) {
      const cli = startCli(['serve', '--api-key', 'k', '--memory', ...flags], { cwd: await tempDir() });
      const [, url = ''] = await cli.waitForStdout(listening);
      const created = await postJson(`${url}/api/v1/runs`, 'k', { project: 'p', framework: 'vitest' });
      const { id, extensions, attachments } = (await created.json()) as {
        id: string;
        extensions?: unknown;
        attachments?: unknown;
      };
      const submitted = await postJson(`${url}/api/v1/runs/${id}/results`, 'k', { results: [result] });
      answers.push({ extensions, attachments, resultsStatus: submitted.status });
      cli.child.kill('SIGTERM');
      expect(await cli.exited()).toBe(0);
    }
    const MB = 1024 * 1024;
    expect(answers).toEqual([
      {
        extensions: [
          'failure-details',
          'complete-run',
          'read-runs',
          'shard-plans',
          'attachments',
          'quarantine',
        ],
        attachments: { maxFileBytes: 25 * MB, maxRunBytes: 500 * MB },
        resultsStatus: 201,
      },
      {
        extensions: ['complete-run', 'read-runs', 'shard-plans', 'attachments', 'quarantine'],
        attachments: { maxFileBytes: 100 * MB, maxRunBytes: 1024 * MB },
        resultsStatus: 400,
      },
      { extensions: undefined, attachments: undefined, resultsStatus: 400 },
    ]);
  });

  it('exits 2 for a --trust-proxy that is not an address or a CIDR range', async () => {
    const cli = startCli(['serve', '--memory', '--trust-proxy', '10.0.0.1,proxy.internal'], {
      cwd: await tempDir(),
    });
    expect(await cli.exited()).toBe(2);
    expect(cli.stderr()).toContain(
      'testrun serve: --trust-proxy must list IP addresses or CIDR ranges, e.g. 10.0.0.5,10.1.0.0/16, got "proxy.internal"',
    );
  });

  it('shows a run abandoned once it received nothing for --abandoned-after', async () => {
    const cli = startCli(['serve', '--api-key', 'k', '--abandoned-after', '1s'], { cwd: await tempDir() });
    const [, url = ''] = await cli.waitForStdout(listening);
    const created = await postJson(`${url}/api/v1/runs`, 'k', { project: 'p', framework: 'vitest' });
    const { id } = (await created.json()) as { id: string };
    // Polled, not timed: the run turns abandoned a second after it was created.
    await expect
      .poll(
        async () =>
          (
            (await (
              await fetch(`${url}/api/v1/runs/${id}`, { headers: { authorization: 'Bearer k' } })
            ).json()) as { state: string }
          ).state,
        { timeout: 10_000, interval: 200 },
      )
      .toBe('abandoned');
    cli.child.kill('SIGTERM');
    expect(await cli.exited()).toBe(0);
  });
});
