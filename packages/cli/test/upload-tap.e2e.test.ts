import fs from 'node:fs';
import path from 'node:path';
import {
  CLI_BIN,
  identities,
  inPnpmTest,
  type RunOutcome,
  recordedTap,
  refusingResults,
  runProcess,
  startTestServer,
  TAP_FIXTURE,
  type TapWriter,
  type TestServer,
  tapWriterCommand,
  tapWriterResults,
  uploadCheckout,
  uploadEnv,
} from '@testrun/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Real TAP writers (node-tap, AVA, node --test; installed from npm in the TAP fixture) piped
// into the real CLI, as a CI step runs them: `<writer> | npx @testrun/cli upload --format tap -`,
// in a checkout named `shop`, into a real server. What each run stores is what the recorded
// streams map to (packages/cli/test/reports/read-tap.test.ts holds every mapping rule).

const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

/**
 * `writer | testrun upload …` in bash: the writer in the TAP fixture, the upload in `cwd`;
 * prints both exit codes last (`exit codes: <writer> <upload>`).
 */
function pipeline(writer: string[], uploadArgs: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const script = `(cd ${quote(TAP_FIXTURE)} && ${writer.map(quote).join(' ')}) | ${[process.execPath, CLI_BIN, 'upload', ...uploadArgs].map(quote).join(' ')}; echo "exit codes: \${PIPESTATUS[*]}"`;
  return runProcess('bash', ['-c', script], { cwd, env });
}

function exitCodes(outcome: RunOutcome): number[] {
  const codes = /exit codes: (\d+) (\d+)\s*$/.exec(outcome.stdout);
  if (!codes) throw new Error(`no exit codes in:\n${outcome.stdout}\n${outcome.stderr}`);
  return [Number(codes[1]), Number(codes[2])];
}

// pnpm test pipes the writer built into Node; pnpm test:compat the two installed from npm
// (node-tap alone costs 9 s of CPU), as a shared file's other runners' legs run there
// (docs/design/testing.md#shared-e2e-files).
const PIPED: TapWriter[] = inPnpmTest() ? ['node-test'] : ['node-tap', 'ava'];

describe('a real writer piped into testrun upload -', () => {
  let server: TestServer;
  const outcomes = {} as Record<TapWriter, RunOutcome>;

  beforeAll(async () => {
    server = await startTestServer();
    const env = uploadEnv(server);
    await Promise.all(
      PIPED.map(async (writer) => {
        outcomes[writer] = await pipeline(
          tapWriterCommand(writer),
          ['--format', 'tap', '--project', writer, '-'],
          uploadCheckout(),
          { ...env, NO_COLOR: '1' },
        );
      }),
    );
  }, 120_000);
  afterAll(() => server.close());

  it.each(PIPED)(
    '%s: stores exactly what the runner reported, in one run, and the runner exits as alone',
    async (writer) => {
      const outcome = outcomes[writer];
      const output = `${outcome.stdout}\n${outcome.stderr}`;
      const runs = (await server.server.store.runs()).filter((run) => run.project === writer);
      expect(
        runs.map(({ framework }) => framework),
        output,
      ).toEqual(['tap']);
      const stored = await server.server.store.results(runs[0]!.id);
      // todo is sent as skipped (statusMap's default).
      const expected = tapWriterResults(writer, '(stdin)').map((result) =>
        result.status === 'todo' ? { ...result, status: 'skipped' } : result,
      );
      expect(identities(stored), output).toEqual(identities(expected));
      // The failing test fails the writer (1), as without the upload; the upload exits 0.
      expect(exitCodes(outcome), output).toEqual([1, 0]);
      const failed = stored.find((result) => result.status === 'failed');
      expect(failed?.details?.message, output).toContain('takes 20% off');
    },
  );
});

if (inPnpmTest())
  describe('testrun upload of TAP files and streams', () => {
    it('reads a TAP file by its content, naming its results by --suite, and says what repeats', async () => {
      const server = await startTestServer();
      const dir = uploadCheckout();
      fs.copyFileSync(recordedTap('tape'), path.join(dir, 'reports', 'tape.tap'));
      fs.writeFileSync(
        path.join(dir, 'reports', 'again.tap'),
        'TAP version 13\nok 1 - same\nok 2 - same\n1..2\n',
      );
      const outcome = await runProcess(
        process.execPath,
        [CLI_BIN, 'upload', 'reports/*.tap', '--suite', 'unit', '--project', 'shop'],
        { cwd: dir, env: uploadEnv(server) },
      );
      const [run] = await server.server.store.runs();
      expect(run?.framework, outcome.stderr).toBe('tap');
      const expected = [
        ...tapWriterResults('tape', 'unit'),
        { testSuite: 'unit', testCase: 'same', status: 'passed' },
        { testSuite: 'unit', testCase: 'same (2)', status: 'passed' },
      ].map((result) => (result.status === 'todo' ? { ...result, status: 'skipped' } : result));
      expect(identities(await server.server.store.results(run!.id))).toEqual(identities(expected));
      expect(outcome.stderr).toContain(
        'testrun upload: reports/again.tap: 1 result repeats the name of an earlier one; each is sent as a result of its own, with (2), (3)… after its name.',
      );
      expect(outcome.code).toBe(0);
      await server.close();
    });

    it('reads a writer’s whole stream without TESTRUN_API_KEY, so the writer never finds its pipe closed', async () => {
      // 2 MB of TAP, far more than a pipe holds: a writer whose reader left would fail writing it.
      const writer = [
        process.execPath,
        '-e',
        "const line = 'ok 1 - '.padEnd(1000, 'x') + '\\n'; for (let i = 0; i < 2000; i++) process.stdout.write(line); process.stdout.write('1..2000\\n');",
      ];
      const outcome = await pipeline(writer, ['-'], uploadCheckout(), uploadEnv(undefined));
      expect(outcome.stderr).toContain('TESTRUN_API_KEY is not set');
      expect(exitCodes(outcome)).toEqual([0, 1]);
    });

    // A result the service refuses never holds back the others (docs/reliability.md), a duration no
    // test has is sent as 0, and a report nested past the bound is refused at once, alone
    // (read-tap.test.ts reads 10,000 levels; docs/tap.md#limits).
    it('stores every other result when the service refuses one, one lasts 1e308 ms and one writes 4 MB of diagnostics, spools nothing, and refuses a report nested too deep', async () => {
      const server = await startTestServer({
        faults: refusingResults(
          (result) => result.testCase === 'refused',
          'results/0/testCase: not on this service',
        ),
      });
      const dir = uploadCheckout();
      const point = (n: number, name: string, durationMs: string) =>
        `ok ${n} - ${name}\n  ---\n  duration_ms: ${durationMs}\n  ...\n`;
      // 4.2 MB of diagnostics: past the bound, sent without them.
      const output = `    ${'o'.repeat(995)}\n`.repeat(4_200);
      const overlong = `not ok 5 - says too much\n  ---\n  duration_ms: 7\n  output: |-\n${output}  ...\n`;
      fs.writeFileSync(
        path.join(dir, 'reports', 'timed.tap'),
        `TAP version 13\n${point(1, 'adds an item', '12.5')}${point(2, 'takes forever', '1e308')}${point(3, 'refused', '3')}ok 4 - after\n${overlong}1..5\n`,
      );
      const levels = Array.from({ length: 150 }, (_, d) => `${'    '.repeat(d)}# Subtest: level ${d}\n`);
      fs.writeFileSync(path.join(dir, 'reports', 'deep.tap'), `TAP version 14\n${levels.join('')}`);
      const env = uploadEnv(server);
      const outcome = await runProcess(
        process.execPath,
        [CLI_BIN, 'upload', 'reports/*.tap', '--suite', 'unit', '--project', 'shop'],
        { cwd: dir, env },
      );
      const [run] = await server.server.store.runs();
      const stored = await server.server.store.results(run!.id);
      expect(
        stored
          .map(({ testCase, duration }) => ({ testCase, duration }))
          .sort((a, b) => a.testCase.localeCompare(b.testCase)),
        outcome.stderr,
      ).toEqual([
        { testCase: 'adds an item', duration: 12.5 },
        { testCase: 'after', duration: 0 },
        { testCase: 'says too much', duration: 7 },
        { testCase: 'takes forever', duration: 0 },
      ]);
      expect(fs.readdirSync(env.TESTRUN_SPOOL_DIR!)).toEqual([]);
      const lines = outcome.stderr.split('\n');
      expect(lines).toContain(
        'testrun upload: reports/deep.tap:103: its subtests nest more than 100 levels deep; testrun upload reads TAP nested up to 100 levels (a level per test file, describe or t.test). Write the report with fewer levels, or split it. Nothing from it is sent.',
      );
      expect(lines).toContain(
        'testrun upload: reports/timed.tap:16: 1 YAML diagnostics block is longer than 4,194,304 characters; its test point is sent without them (its duration kept).',
      );
      expect(lines).toContain(
        'testrun upload: reports/timed.tap: test point 2: 1 test point has a duration that is not a number of milliseconds from 0 to 24.8 days (1e+308); sent with duration 0.',
      );
      expect(lines.filter((line) => line.includes('the service refused'))).toEqual([
        expect.stringMatching(
          /^testrun: the service refused a result, which is not sent again: testSuite "unit", testCase "refused" \(status "passed", duration 3\): POST .* answered 400: .*not on this service/,
        ),
      ]);
      expect(lines).toContainEqual(expect.stringMatching(/; 1 refused by the service \(see above\)/));
      // A report not sent, and a result refused: not everything arrived.
      expect(outcome.code).toBe(1);
      await server.close();
    });
  });
