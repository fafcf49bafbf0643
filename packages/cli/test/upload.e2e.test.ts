import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  cleanEnv,
  fixtures,
  identities,
  onlyRun,
  PYTEST_RESULTS,
  runCli,
  SUREFIRE_RESULTS,
  startTestServer,
  tempDir,
  uploadEnv,
} from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

const pytestReport = path.join(fixtures.junit, 'pytest.xml');

describe('testrun upload', () => {
  it('stores every testcase of a pytest report as the mapping says, in a pytest run', async () => {
    const server = await startTestServer();
    const { code, stderr } = await runCli(['upload', pytestReport, '--project', 'shop-api'], {
      env: uploadEnv(server),
    });

    expect(code).toBe(0);
    const { run, results } = await onlyRun(server);
    expect(run).toMatchObject({ project: 'shop-api', framework: 'pytest', tags: [] });
    expect(identities(results)).toEqual(identities(PYTEST_RESULTS));
    const duration = (testCase: string) => results.find((result) => result.testCase === testCase)?.duration;
    expect([duration('test_charges_card'), duration('test_sums_line_items')]).toEqual([118, 2]);
    expect(stderr).toContain('pytest.xml: 1 testcase repeats an earlier one of its suite');
    expect(stderr).toContain(`testrun: 12 results → run ${run.id} (`);
    // The run it created ends as the report says (completeRun 'auto': the service announced it).
    const ended = results.some((result) => result.status === 'failed') ? 'failed' : 'completed';
    expect(await server.server.store.endOf(run.id)).toMatchObject({ status: ended });
  });

  it('stores everything in a run whose id is an integer past 2^53, answered as a JSON number', async () => {
    const server = await startTestServer({ runIds: 'integer' });
    const upload = await runCli(['upload', pytestReport], { env: uploadEnv(server) });
    expect(upload.code).toBe(0);
    const { run, results } = await onlyRun(server);
    expect(run.id).toBe('9007199254740993');
    expect(identities(results)).toEqual(identities(PYTEST_RESULTS));
    expect(upload.stderr).toContain('→ run 9007199254740993 ');
  });

  it('expands a quoted glob itself, and stores each Surefire class as a suite in a surefire run', async () => {
    const server = await startTestServer();
    const { code, stderr } = await runCli(['upload', 'surefire-reports/TEST-*.xml'], {
      env: uploadEnv(server),
      cwd: fixtures.junit,
    });

    expect(stderr).not.toContain('testrun upload:');
    expect(code).toBe(0);
    const { run, results } = await onlyRun(server);
    expect(run.framework).toBe('surefire');
    expect(identities(results)).toEqual(identities(SUREFIRE_RESULTS));
    // Old Surefire versions group thousands: time="1,204.101".
    expect(results.find((result) => result.testCase === 'placesAnOrder')?.duration).toBe(1_204_101);
  });

  it('reads gzip-compressed reports as they are', async () => {
    const dir = tempDir('testrun-upload-');
    fs.writeFileSync(path.join(dir, 'pytest.xml.gz'), gzipSync(fs.readFileSync(pytestReport)));
    const server = await startTestServer();
    const { code } = await runCli(['upload', 'pytest.xml.gz'], { env: uploadEnv(server), cwd: dir });

    expect(code).toBe(0);
    expect(identities((await onlyRun(server)).results)).toEqual(identities(PYTEST_RESULTS));
  });

  it('sends several reports into one run, under the framework given, with the tags given', async () => {
    const server = await startTestServer();
    const { code } = await runCli(
      [
        'upload',
        'pytest.xml',
        'surefire-reports/*.xml',
        '--framework',
        'nightly-mix',
        '--tags',
        'nightly, linux',
      ],
      { env: uploadEnv(server), cwd: fixtures.junit },
    );

    expect(code).toBe(0);
    const { run, results } = await onlyRun(server);
    expect(run).toMatchObject({ framework: 'nightly-mix', tags: ['nightly', 'linux'] });
    expect(identities(results)).toEqual(identities([...PYTEST_RESULTS, ...SUREFIRE_RESULTS]));
  });

  it('calls a run of reports from different frameworks junit', async () => {
    const server = await startTestServer();
    const { code } = await runCli(['upload', 'pytest.xml', 'surefire-reports/*.xml'], {
      env: uploadEnv(server),
      cwd: fixtures.junit,
    });
    expect(code).toBe(0);
    expect((await onlyRun(server)).run.framework).toBe('junit');
  });

  it('reports into an existing run from --run-id or TESTRUN_RUN_ID, creating none', async () => {
    const server = await startTestServer();
    const env = uploadEnv(server);
    const created = await fetch(`${server.url}/api/v1/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ project: 'shop', framework: 'mixed', tags: ['pipeline'] }),
    });
    const { id } = (await created.json()) as { id: string };

    const byFlag = await runCli(['upload', 'pytest.xml', '--run-id', id], { env, cwd: fixtures.junit });
    const byEnv = await runCli(['upload', 'surefire-reports/*.xml'], {
      env: { ...env, TESTRUN_RUN_ID: id },
      cwd: fixtures.junit,
    });

    expect([byFlag.code, byEnv.code]).toEqual([0, 0]);
    const { run, results } = await onlyRun(server);
    expect(run).toMatchObject({ id, framework: 'mixed', tags: ['pipeline'] });
    expect(identities(results)).toEqual(identities([...PYTEST_RESULTS, ...SUREFIRE_RESULTS]));
    // A run it was given is its creator's to complete.
    expect(server.server.requests.filter((request) => request.route === 'completeRun')).toEqual([]);
  });

  it('keeps each repeat of a writer not known to write reruns that way, and names nameless testcases, with the file and line', async () => {
    // Before, the repeat was merged with its last outcome and the failure was lost (issue 22).
    const dir = tempDir('testrun-upload-');
    fs.writeFileSync(
      path.join(dir, 'odd.xml'),
      `<testsuites>
  <testsuite name="com.example.RetryTest">
    <testcase classname="com.example.RetryTest" name="flaky" time="0.2"><failure message="timeout"/></testcase>
    <testcase classname="com.example.RetryTest" time="0.1"/>
    <testcase classname="com.example.RetryTest" name="flaky" time="0.3"/>
  </testsuite>
</testsuites>
`,
    );
    const server = await startTestServer();
    const { code, stderr } = await runCli(['upload', 'odd.xml'], { env: uploadEnv(server), cwd: dir });

    expect(code).toBe(0);
    expect(stderr).toContain(
      'testrun upload: odd.xml:4: 1 testcase has no name attribute; sent as (unnamed).\n',
    );
    expect(stderr).toContain(
      'testrun upload: odd.xml: 1 testcase repeats the name of an earlier one without being a rerun; each is sent as a result of its own, with (2), (3)… after its name.\n',
    );
    expect(
      (await onlyRun(server)).results
        .map(({ testSuite, testCase, status, duration }) => ({
          testSuite,
          testCase,
          status,
          duration,
        }))
        .sort((a, b) => (a.testCase < b.testCase ? -1 : 1)),
    ).toEqual([
      { testSuite: 'com.example.RetryTest', testCase: '(unnamed)', status: 'passed', duration: 100 },
      { testSuite: 'com.example.RetryTest', testCase: 'flaky', status: 'failed', duration: 200 },
      { testSuite: 'com.example.RetryTest', testCase: 'flaky (2)', status: 'passed', duration: 300 },
    ]);
  });

  it('names test files from the file attribute, relative to where it runs', async () => {
    const dir = tempDir('testrun-upload-');
    fs.mkdirSync(path.join(dir, 'reports'));
    fs.writeFileSync(
      path.join(dir, 'reports', 'phpunit.xml'),
      `<?xml version="1.0" encoding="UTF-8"?>
<testsuites>
  <testsuite name="Tests\\CartTest" file="${dir}/tests/CartTest.php" tests="2">
    <testcase name="testAddsTax" class="Tests\\CartTest" classname="Tests.CartTest" file="${dir}/tests/CartTest.php" line="12" time="0.004"/>
    <testcase name="testRounds" class="Tests\\CartTest" classname="Tests.CartTest" file="${dir}/tests/CartTest.php" line="20" time="0.001"><failure type="PHPUnit\\Framework\\ExpectationFailedException">Failed</failure></testcase>
  </testsuite>
  <testsuite name="Tests\\BrokenTest" file="${dir}/tests/BrokenTest.php" tests="0" errors="1">
    <error type="ParseError">syntax error, unexpected token "}"</error>
  </testsuite>
</testsuites>
`,
    );
    const server = await startTestServer();
    const { code } = await runCli(['upload', 'reports/phpunit.xml'], { env: uploadEnv(server), cwd: dir });

    expect(code).toBe(0);
    expect(identities((await onlyRun(server)).results)).toEqual(
      identities([
        { testSuite: 'tests/CartTest.php', testCase: 'Tests.CartTest > testAddsTax', status: 'passed' },
        { testSuite: 'tests/CartTest.php', testCase: 'Tests.CartTest > testRounds', status: 'failed' },
        { testSuite: 'tests/BrokenTest.php', testCase: '(file failed to run)', status: 'failed' },
      ]),
    );
  });
});

describe('testrun upload with reports it cannot read', () => {
  it('sends nothing of a malformed report, sends the others, names file and line, and exits 1', async () => {
    const dir = tempDir('testrun-upload-');
    fs.copyFileSync(pytestReport, path.join(dir, 'pytest.xml'));
    fs.writeFileSync(
      path.join(dir, 'cut-short.xml'),
      '<testsuites>\n  <testsuite name="api">\n    <testcase classname="api.Users" name="lists users"/>\n    <testcase classname="api.Users" name="adds a us',
    );
    const server = await startTestServer();
    const { code, stderr } = await runCli(['upload', '*.xml'], { env: uploadEnv(server), cwd: dir });

    expect(code).toBe(1);
    expect(stderr).toMatch(
      /testrun upload: cut-short\.xml:4:\d+: not well-formed XML \(.+\)\. It ends too early: was the test process stopped while writing it\? Nothing from it is sent\.\n/,
    );
    expect(stderr).toMatch(/testrun: 12 results → run .+; 1 report not sent \(see above\)\n/);
    expect(identities((await onlyRun(server)).results)).toEqual(identities(PYTEST_RESULTS));
  });

  it('creates no run and sends nothing when no report can be read', async () => {
    const dir = tempDir('testrun-upload-');
    fs.writeFileSync(path.join(dir, 'coverage.xml'), '<?xml version="1.0"?>\n<coverage line-rate="0.8"/>\n');
    const server = await startTestServer();
    const { code, stderr } = await runCli(['upload', 'coverage.xml', 'missing.xml'], {
      env: uploadEnv(server),
      cwd: dir,
    });

    expect(code).toBe(1);
    expect(stderr).toBe(
      [
        'testrun upload: coverage.xml:2: not a JUnit XML report: its root element is <coverage>, expected <testsuites> or <testsuite>. Give testrun upload JUnit XML, CTRF JSON or TAP reports. Nothing from it is sent.',
        'testrun upload: missing.xml: cannot be read: no such file. Nothing from it is sent.',
        'testrun upload: no JUnit XML, CTRF or TAP report to send; nothing was sent, and no run was created.',
        '',
      ].join('\n'),
    );
    expect(server.server.requests).toEqual([]);
  });

  it('names a glob that matches nothing, and exits 1 only when nothing matched at all', async () => {
    const server = await startTestServer();
    const some = await runCli(['upload', 'pytest.xml', 'go-reports/*.xml'], {
      env: uploadEnv(server),
      cwd: fixtures.junit,
    });
    const none = await runCli(['upload', 'go-reports/*.xml'], {
      env: uploadEnv(server),
      cwd: fixtures.junit,
    });

    expect(some.code).toBe(0);
    expect(some.stderr).toContain('testrun upload: no file matches go-reports/*.xml\n');
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(
      'no JUnit XML, CTRF or TAP report to send; nothing was sent, and no run was created.',
    );
    expect(await server.server.store.runs()).toHaveLength(1);
  });
});

describe('testrun upload, called wrongly', () => {
  it('exits 2 with the usage when no report is given', async () => {
    const { code, stderr } = await runCli(['upload', '--project', 'x'], { env: cleanEnv() });
    expect(code).toBe(2);
    expect(stderr).toContain(
      'testrun upload: give the JUnit XML, CTRF JSON or TAP reports to upload, e.g. testrun upload "reports/**/*.xml", or - for standard input',
    );
    expect(stderr).toContain('Usage: testrun upload <files or globs…>');
  });

  it('exits 1 naming TESTRUN_API_KEY when it is not set, before reading anything', async () => {
    const { code, stderr } = await runCli(['upload', pytestReport], { env: cleanEnv() });
    expect(code).toBe(1);
    expect(stderr).toBe(
      'testrun upload: TESTRUN_API_KEY is not set. Set it and TESTRUN_BASE_URL to reach the service.\n',
    );
  });
});
