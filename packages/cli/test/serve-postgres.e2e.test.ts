import { havePostgres, type PostgresServer, startCli, startPostgres } from '@testrun/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const listening = /testrun server listening on (http:\/\/\S+)\nAPI key: (\S+)\n/;

function postJson(url: string, key: string, body: unknown) {
  return fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe.skipIf(!havePostgres())('testrun serve --database postgres://…', () => {
  let postgres: PostgresServer;
  beforeAll(async () => {
    postgres = await startPostgres();
  });
  afterAll(() => postgres?.stop());

  it('keeps runs on PostgreSQL across restarts, and shows the URL without its password', async () => {
    const database = await postgres.createDatabase();
    const args = ['serve', '--api-key', 'k', '--database', database];
    const shown = database.replace(`:${postgres.password}@`, ':***@');

    const first = startCli(args);
    const [, url = ''] = await first.waitForStdout(listening);
    expect((await postJson(`${url}/api/v1/runs`, 'k', { project: 'kept', framework: 'jest' })).status).toBe(
      201,
    );
    first.child.kill('SIGTERM');
    expect(await first.exited()).toBe(0);

    // The same database from TESTRUN_DATABASE_URL: the password stays out of the process list.
    const second = startCli(['serve', '--api-key', 'k'], { env: { TESTRUN_DATABASE_URL: database } });
    const [, secondUrl] = await second.waitForStdout(listening);
    const listed = await fetch(`${secondUrl}/api/v1/runs`, { headers: { authorization: 'Bearer k' } });
    // Read before stopping the server: the list is streamed, and a stopped server cuts it.
    const projects = ((await listed.json()) as { project: string }[]).map((run) => run.project);
    second.child.kill('SIGTERM');
    expect(await second.exited()).toBe(0);

    expect(first.stdout()).toContain(`Data: ${shown} (0 runs).`);
    expect(second.stdout()).toContain(`Data: ${shown} (1 run).`);
    expect(projects).toEqual(['kept']);
    for (const cli of [first, second]) expect(cli.stdout() + cli.stderr()).not.toContain(postgres.password);
  });

  it('exits 1 naming the fix when PostgreSQL refuses the password, and never prints it', async () => {
    const database = await postgres.createDatabase();
    const wrong = database.replace(postgres.password, 'not-the-password-4f1c');
    const cli = startCli(['serve', '--database', wrong]);

    expect(await cli.exited()).toBe(1);
    expect(cli.stderr()).toContain(
      'testrun serve: cannot open PostgreSQL at postgres://testrun:***@127.0.0.1:',
    );
    expect(cli.stderr()).toContain('password authentication failed');
    expect(cli.stdout() + cli.stderr()).not.toContain('not-the-password-4f1c');
  });

  it('exits 2 for a --database that is not a PostgreSQL URL, echoing none of it', async () => {
    const cli = startCli(['serve', '--database', 'mysql://root:hunter2-secret@db/testrun']);
    expect(await cli.exited()).toBe(2);
    expect(cli.stderr()).toContain(
      '--database must be a PostgreSQL URL: postgres://user:password@host:5432/database',
    );
    expect(cli.stderr()).not.toContain('hunter2-secret');
  });

  it('exits 2 for --database with --memory', async () => {
    const cli = startCli(['serve', '--memory', '--database', await postgres.createDatabase()]);
    expect(await cli.exited()).toBe(2);
    expect(cli.stderr()).toContain('give one of them');
  });
});
