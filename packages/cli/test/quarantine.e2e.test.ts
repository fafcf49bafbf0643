import { cleanEnv, runCli, startTestServer, type TestServer } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

// `testrun quarantine add|remove|list` against a real server (docs/quarantine.md): what it
// sends is the write API's (packages/server/test/quarantine.test.ts holds the API to its rules);
// here, what the command says and does with it.

const READ_KEY = 'quarantine-cli-read-key';
const SUITE = 'src/cart.test.ts';
const TEST = 'cart > totals > rounds';

function envOf(server: TestServer, key = server.apiKey, extra: Record<string, string> = {}) {
  return cleanEnv({ TESTRUN_API_KEY: key, TESTRUN_BASE_URL: server.url, ...extra });
}

describe.concurrent('testrun quarantine', () => {
  it('adds a quarantine, lists it, renews it, lifts it: each change kept with who and why', async () => {
    const server = await startTestServer();
    const env = envOf(server, server.apiKey, { GITHUB_ACTOR: 'ana' });
    const added = await runCli(
      [
        'quarantine',
        'add',
        '--project',
        'web',
        '--reason',
        'flaky since #812',
        '--owner',
        'team-cart',
        '--days',
        '7',
        SUITE,
        TEST,
      ],
      { env },
    );
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(
      /^testrun quarantine: quarantined "cart > totals > rounds" in src\/cart\.test\.ts in project "web" until \d{4}-\d{2}-\d{2}\n$/,
    );

    const listed = await runCli(['quarantine', 'list', '--project', 'web'], { env });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(
      /^1 test quarantined in project "web":\n\n {2}src\/cart\.test\.ts › cart > totals > rounds\n {4}until \d{4}-\d{2}-\d{2} · since \d{4}-\d{2}-\d{2} by ana · owner team-cart\n {4}reason: flaky since #812\n$/,
    );
    const json = await runCli(['quarantine', 'list', '--project', 'web', '--json'], { env });
    expect(JSON.parse(json.stdout)).toMatchObject({
      project: 'web',
      quarantines: [{ testSuite: SUITE, testCase: TEST, owner: 'team-cart', by: 'ana', state: 'active' }],
    });

    const renewed = await runCli(
      ['quarantine', 'add', '--project', 'web', '--reason', 'still', '--by', 'bo', SUITE, TEST],
      { env },
    );
    expect(renewed.stdout).toContain(
      'testrun quarantine: changed the quarantine of "cart > totals > rounds"',
    );

    const lifted = await runCli(
      ['quarantine', 'remove', '--project', 'web', '--reason', 'fixed in #830', SUITE, TEST],
      { env },
    );
    expect(lifted.code).toBe(0);
    expect(lifted.stdout).toBe(
      'testrun quarantine: lifted "cart > totals > rounds" in src/cart.test.ts in project "web"\n',
    );
    expect((await runCli(['quarantine', 'list', '--project', 'web'], { env })).stdout).toBe(
      'No test is quarantined in project "web".\n',
    );

    const changes = await fetch(`${server.url}/api/v1/quarantines/changes?project=web`, {
      headers: { authorization: `Bearer ${server.apiKey}` },
    });
    expect(((await changes.json()) as { changes: object[] }).changes).toMatchObject([
      { action: 'lifted', by: 'ana', reason: 'fixed in #830', via: 'api' },
      { action: 'changed', by: 'bo', reason: 'still' },
      { action: 'quarantined', by: 'ana', reason: 'flaky since #812' },
    ]);
  });

  it("with a read key: lists, and says the service's 403 for a change, exiting 1", async () => {
    const server = await startTestServer({ readKeys: [READ_KEY] });
    const env = envOf(server, READ_KEY);
    const refused = await runCli(['quarantine', 'add', '--project', 'web', '--reason', 'r', SUITE, TEST], {
      env,
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('answered 403');
    expect(refused.stderr).toContain('this is a read key: it reads the API and the pages but writes nothing');
    expect(refused.stderr).not.toContain(READ_KEY);
    const listed = await runCli(['quarantine', 'list', '--project', 'web'], { env });
    expect(listed.code).toBe(0);
  });

  it('says what the service refuses, and what is missing from the call, each with how to fix it', async () => {
    const server = await startTestServer();
    const env = envOf(server);
    const notATest = await runCli(
      ['quarantine', 'add', '--project', 'web', '--reason', 'r', SUITE, '(file failed to run)'],
      { env },
    );
    expect(notATest.code).toBe(1);
    expect(notATest.stderr).toContain('is a file that failed outside its tests, not a test');
    const notQuarantined = await runCli(
      ['quarantine', 'remove', '--project', 'web', '--reason', 'r', SUITE, TEST],
      { env },
    );
    expect(notQuarantined.code).toBe(1);
    expect(notQuarantined.stderr).toContain('answered 404');
    expect(notQuarantined.stderr).toContain('is not quarantined in project \\"web\\"');

    const usage = await Promise.all([
      runCli(['quarantine', 'add', '--project', 'web', SUITE, TEST], { env }),
      runCli(['quarantine', 'add', '--project', 'web', '--reason', 'r', SUITE], { env }),
      runCli(['quarantine', 'add', '--project', 'web', '--reason', 'r', '--days', '400', SUITE, TEST], {
        env,
      }),
      runCli(['quarantine', 'mute', '--project', 'web'], { env }),
    ]);
    expect(usage.map((outcome) => outcome.code)).toEqual([2, 2, 2, 2]);
    expect(usage.map((outcome) => outcome.stderr.split('\n')[0])).toEqual([
      'testrun quarantine: --reason is required to quarantine a test: say why',
      "testrun quarantine: add takes the test's suite and its name, each quoted: '<suite>' '<test>'",
      'testrun quarantine: --days must be a whole number of days from 1 to 365, got "400"',
      'testrun quarantine: say what to do: add, remove or list, got "mute"',
    ]);
    expect(
      await fetch(`${server.url}/api/v1/quarantines?project=web`, {
        headers: { authorization: `Bearer ${server.apiKey}` },
      }).then((r) => r.json()),
    ).toMatchObject({ quarantines: [] });
  });
});
