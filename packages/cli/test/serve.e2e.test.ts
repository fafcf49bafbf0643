import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCli } from '@testrun/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';

const listening = /testrun server listening on (http:\/\/\S+)\nAPI key: (\S+)\n/;

function postJson(url: string, key: string, body: unknown) {
  return fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe('testrun serve', () => {
  it('serves the API with the given key and exits 0 on SIGTERM', async () => {
    const cli = startCli(['serve', '--port', '0', '--api-key', 'serve-test-key']);
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

    expect(created.status).toBe(201);
    expect(submitted.status).toBe(201);
    expect(withOtherKey.status).toBe(401);

    cli.child.kill('SIGTERM');
    expect(await cli.exited()).toBe(0);
    expect(cli.stdout()).toContain('testrun server stopped');
  });

  it('generates and prints a key when none is given, and exits 0 on SIGINT', async () => {
    const cli = startCli(['serve']);
    const [, url, key = ''] = await cli.waitForStdout(listening);
    expect(key).toMatch(/^trk_[0-9a-f]{24}$/);

    const listed = await fetch(`${url}/api/v1/runs`, { headers: { authorization: `Bearer ${key}` } });
    expect(listed.status).toBe(200);

    cli.child.kill('SIGINT');
    expect(await cli.exited()).toBe(0);
  });

  it('keeps runs in the --data file across restarts', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'testrun-cli-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const args = ['serve', '--api-key', 'k', '--data', join(dir, 'runs.ndjson')];

    const first = startCli(args);
    const [, firstUrl] = await first.waitForStdout(listening);
    await postJson(`${firstUrl}/api/v1/runs`, 'k', { project: 'kept', framework: 'jest' });
    first.child.kill('SIGTERM');
    await first.exited();

    const second = startCli(args);
    const [, secondUrl] = await second.waitForStdout(listening);
    const runs = (await (
      await fetch(`${secondUrl}/api/v1/runs`, { headers: { authorization: 'Bearer k' } })
    ).json()) as {
      project: string;
    }[];
    second.child.kill('SIGTERM');

    expect(second.stdout()).toContain('(1 run read back)');
    expect(runs.map((run) => run.project)).toEqual(['kept']);
    expect(await second.exited()).toBe(0);
  });

  it('asks for a key on the pages with --read-key, reads the API with it, and never prints it', async () => {
    const readKey = 'trk_read_only_5c1e0a';
    const cli = startCli(['serve', '--api-key', 'k', '--read-key', readKey]);
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
    expect(write.status).toBe(401);
    expect(await cli.exited()).toBe(0);
    expect(cli.stdout() + cli.stderr()).not.toContain(readKey);
  });

  it('takes the read key from TESTRUN_READ_KEY', async () => {
    const readKey = 'trk_read_from_env_77a1';
    const cli = startCli(['serve', '--api-key', 'k'], { env: { ...process.env, TESTRUN_READ_KEY: readKey } });
    const [, url] = await cli.waitForStdout(listening);
    const page = await fetch(`${url}/`, { headers: { authorization: `Bearer ${readKey}` } });
    const without = await fetch(`${url}/`, { redirect: 'manual' });
    cli.child.kill('SIGTERM');

    expect(page.status).toBe(200);
    expect(without.status).toBe(303);
    expect(await cli.exited()).toBe(0);
    expect(cli.stdout()).not.toContain(readKey);
  });

  it('keeps the pages open on loopback without a read key, and says nothing about them', async () => {
    const cli = startCli(['serve', '--api-key', 'k'], { env: { ...process.env, TESTRUN_READ_KEY: '' } });
    const [, url] = await cli.waitForStdout(listening);
    const page = await fetch(`${url}/`, { redirect: 'manual' });
    cli.child.kill('SIGTERM');

    expect(page.status).toBe(200);
    expect(await cli.exited()).toBe(0);
    expect(cli.stdout()).not.toContain('Pages ask');
  });

  it('exits 2 with the serve usage for an invalid port', async () => {
    const cli = startCli(['serve', '--port', '70000']);
    expect(await cli.exited()).toBe(2);
    expect(cli.stderr()).toContain(
      'testrun serve: --port must be a whole number from 0 to 65535, got "70000"',
    );
    expect(cli.stderr()).toContain('Usage: testrun serve');
  });

  it('exits 2 for an --abandoned-after without a unit', async () => {
    const cli = startCli(['serve', '--abandoned-after', '90']);
    expect(await cli.exited()).toBe(2);
    expect(cli.stderr()).toContain(
      'testrun serve: --abandoned-after must be a whole number with a unit, e.g. 90s, 30m or 2h, got "90"',
    );
  });

  it('shows a run abandoned once it received nothing for --abandoned-after', async () => {
    const cli = startCli(['serve', '--api-key', 'k', '--abandoned-after', '1s']);
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
