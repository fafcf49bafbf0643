import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import {
  CLI_BIN,
  closedPortUrl,
  collectOutput,
  createReporter,
  makeResults,
  refusingResults,
  runCli,
  startCli,
  startTestServer,
  type TestServer,
  tempDir,
} from '@testrun/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';

let started: TestServer | undefined;

/** A spool written by a real session that could not reach its service. */
async function spoolFromDeadServer(
  apiKey: string,
  count: number,
): Promise<{ spoolDir: string; deadUrl: string }> {
  const deadUrl = await closedPortUrl();
  const { reporter, spoolDir } = createReporter(deadUrl, apiKey, { flushTimeout: 300, batchSize: 10 });
  reporter.startRun();
  reporter.addResults(makeResults(count));
  const summary = await reporter.endRun();
  expect(summary).toMatchObject({ spooled: count });
  return { spoolDir, deadUrl };
}

/** What `testrun replay` needs to send to `server`. */
const replayEnv = (server: TestServer) => ({
  PATH: process.env.PATH,
  TESTRUN_API_KEY: server.apiKey,
  TESTRUN_BASE_URL: server.url,
});

/** Waits until `find` finds something. */
async function waitFor<T>(what: string, find: () => T | undefined): Promise<T> {
  for (let waited = 0; waited < 60_000; waited += 20) {
    const found = find();
    if (found) return found;
    await sleep(20);
  }
  throw new Error(`gave up waiting for ${what}`);
}

const claimIn = (dir: string) => fs.readdirSync(dir).find((name) => name.endsWith('.replaying'));

describe('testrun replay', () => {
  it('delivers a spool exactly once, empties it, and finds nothing the second time', async () => {
    started = await startTestServer();
    const { spoolDir } = await spoolFromDeadServer(started.apiKey, 25);
    const env = { PATH: process.env.PATH, TESTRUN_API_KEY: started.apiKey, TESTRUN_BASE_URL: started.url };

    const first = await runCli(['replay', '--dir', spoolDir, '--ignore-recorded-url'], { env });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(
      // The reporter spooled its run's end too (completeRun 'auto'): the service the replay reached announces it.
      `testrun replay: 25 results delivered from 1 spool file, 1 run completed; 0 remain in ${spoolDir}\n`,
    );
    expect(fs.readdirSync(spoolDir)).toEqual([]);

    const second = await runCli(['replay', '--dir', spoolDir, '--ignore-recorded-url'], { env });
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(`testrun replay: nothing to send in ${spoolDir}\n`);

    const [run] = await started.server.store.runs();
    expect(await started.server.store.runs()).toHaveLength(1);
    const cases = (await started.server.store.results(run!.id)).map((r) => r.testCase);
    expect(new Set(cases).size).toBe(25);
    expect(cases).toHaveLength(25);
  });

  it('drops a result the service refuses alone, saying so in one line, and exits 1 without asking to run again', async () => {
    started = await startTestServer({
      faults: refusingResults((result) => result.testCase === 'case 7', 'results/0: refused for good'),
    });
    const { spoolDir } = await spoolFromDeadServer(started.apiKey, 25);
    const { code, stdout, stderr } = await runCli(['replay', '--dir', spoolDir, '--ignore-recorded-url'], {
      env: replayEnv(started),
    });
    expect(stdout).toBe(
      `testrun replay: 24 results delivered from 1 spool file, 1 run completed, 1 refused by the service (not sent again); 0 remain in ${spoolDir}\n`,
    );
    expect(stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^testrun replay: .*\.ndjson: the service refused a result, which is not sent again: testSuite "suite.test.ts", testCase "case 7" .* answered 400: .*refused for good/,
      ),
    ]);
    expect(code).toBe(1);
    expect(fs.readdirSync(spoolDir)).toEqual([]);
  });

  it('gives up at --timeout against a service that keeps asking to retry later, keeping the spool', async () => {
    started = await startTestServer({ faults: () => ({ status: 503, headers: { 'retry-after': '3600' } }) });
    const { spoolDir } = await spoolFromDeadServer(started.apiKey, 5);
    const env = { PATH: process.env.PATH, TESTRUN_API_KEY: started.apiKey, TESTRUN_BASE_URL: started.url };
    const { code, stdout } = await runCli(
      ['replay', '--dir', spoolDir, '--ignore-recorded-url', '--timeout', '1'],
      { env },
    );
    expect(code).toBe(1);
    expect(stdout).toContain('0 results delivered from 1 spool file; 5 remain');
    expect(started.server.requests).toHaveLength(1);
    expect(fs.readdirSync(spoolDir)).toHaveLength(1);
  });

  it('keeps the spool and exits 1 with a clear message when the service is still down', async () => {
    const { spoolDir, deadUrl } = await spoolFromDeadServer('some-key-8812', 5);
    const before = fs.readdirSync(spoolDir);
    const env = { PATH: process.env.PATH, TESTRUN_API_KEY: 'some-key-8812', TESTRUN_BASE_URL: deadUrl };
    const { code, stdout, stderr } = await runCli(['replay', '--dir', spoolDir, '--ignore-recorded-url'], {
      env,
    });
    expect(code).toBe(1);
    expect(stdout).toContain('0 results delivered from 1 spool file; 5 remain');
    expect(stderr).toContain('they stay in the spool');
    expect(stderr).toContain('ECONNREFUSED');
    expect(stderr).toContain('they stay in the spool. Run it again later.');
    expect(stderr + stdout).not.toContain('some-key-8812');
    expect(fs.readdirSync(spoolDir)).toEqual(before);
  }, 60_000);
});

describe('testrun replay and the service a spool was recorded for', () => {
  it('sends the key only to TESTRUN_BASE_URL: a spool recorded for another service is skipped with one line', async () => {
    started = await startTestServer();
    const { spoolDir, deadUrl } = await spoolFromDeadServer(started.apiKey, 5);
    const env = { PATH: process.env.PATH, TESTRUN_API_KEY: started.apiKey, TESTRUN_BASE_URL: started.url };
    const skipped = await runCli(['replay', '--dir', spoolDir], { env });
    expect(skipped.code).toBe(1);
    expect(skipped.stderr).toContain(`was recorded for ${deadUrl}, not ${started.url}; it was left in place`);
    expect(skipped.stderr).toContain('--ignore-recorded-url');
    expect(skipped.stdout).toContain('0 results delivered from 1 spool file; 5 remain');
    // Running it again later changes nothing for a file recorded elsewhere: no such advice.
    expect(skipped.stderr).not.toContain('again later');
    expect(started.server.requests).toEqual([]);

    const sent = await runCli(['replay', '--dir', spoolDir, '--ignore-recorded-url'], { env });
    expect(sent.code).toBe(0);
    expect(await started.server.store.allResults()).toHaveLength(5);
  });

  it('needs TESTRUN_BASE_URL, since the key goes nowhere else', async () => {
    const { spoolDir } = await spoolFromDeadServer('some-key-8812', 2);
    const { code, stderr } = await runCli(['replay', '--dir', spoolDir], {
      env: { PATH: process.env.PATH, TESTRUN_API_KEY: 'some-key-8812' },
    });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^testrun replay: option baseUrl \(TESTRUN_BASE_URL\) is required/);
    expect(fs.readdirSync(spoolDir)).toHaveLength(1);
  });
});

/** A server whose create-run hangs while `stall.on`: a replay sending to it holds its claim meanwhile. */
async function stallingServer(): Promise<{ server: TestServer; stall: { on: boolean } }> {
  const stall = { on: true };
  const server = await startTestServer({
    faults: ({ route }) => (stall.on && route === 'createRun' ? { delayMs: 60_000 } : undefined),
  });
  return { server, stall };
}

/** Starts a replay that claims the spool and hangs on the stalled server; resolves with it and its claim. */
async function replayHoldingTheSpool(spoolDir: string, server: TestServer) {
  const holder = startCli(['replay', '--dir', spoolDir, '--ignore-recorded-url'], { env: replayEnv(server) });
  const claim = await waitFor('the claim', () => claimIn(spoolDir));
  return { holder, claim };
}

/**
 * The replay sent the whole spool, once, and left the directory empty; with `completed`, it
 * also completed the run (a reporter that ended spooled its end; one killed with -9 did not).
 */
async function expectEverythingSent(
  replay: { code: number | null; stdout: string; stderr: string },
  spoolDir: string,
  server: TestServer,
  count: number,
  { completed = true } = {},
): Promise<void> {
  expect(replay.stderr).toBe('');
  expect(replay.code).toBe(0);
  const ended = completed ? ', 1 run completed' : '';
  expect(replay.stdout).toContain(`${count} results delivered from 1 spool file${ended}; 0 remain`);
  expect(fs.readdirSync(spoolDir)).toEqual([]);
  expect(await server.server.store.allResults()).toHaveLength(count);
}

async function kill(child: ChildProcess): Promise<void> {
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

const UNSHARE_NEW_PID_NAMESPACE = ['--pid', '--fork', '--mount-proc', '--kill-child'];
const canUnshare =
  process.platform === 'linux' && spawnSync('unshare', [...UNSHARE_NEW_PID_NAMESPACE, 'true']).status === 0;

/** `testrun replay` as the first process of a new pid namespace, as in a container: it is pid 1. */
function replayAsPidOne(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(
    'unshare',
    [...UNSHARE_NEW_PID_NAMESPACE, process.execPath, CLI_BIN, 'replay', ...args],
    {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const output = collectOutput(child);
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  const exited = once(child, 'close').then(([code]) => ({
    code: code as number | null,
    stdout: output.stdout(),
    stderr: output.stderr(),
  }));
  return { child, exited };
}

describe('testrun replay and the files of processes that died', () => {
  it('leaves a file a running replay holds alone and exits 1, and takes it over once that replay was killed', async () => {
    const { server, stall } = await stallingServer();
    started = server;
    const { spoolDir } = await spoolFromDeadServer(server.apiKey, 5);
    const { holder, claim } = await replayHoldingTheSpool(spoolDir, server);

    const meanwhile = await runCli(['replay', '--dir', spoolDir, '--ignore-recorded-url'], {
      env: replayEnv(server),
    });
    expect(meanwhile.code).toBe(1);
    expect(meanwhile.stdout).toBe(`testrun replay: nothing to send in ${spoolDir}\n`);
    expect(meanwhile.stderr).toContain(
      `${path.join(spoolDir, claim.replace(/\.ndjson\..*/, '.ndjson'))} is held by a running replay (pid ${holder.child.pid}); it was left alone.`,
    );
    expect(fs.readdirSync(spoolDir)).toEqual([claim]);

    await kill(holder.child);
    stall.on = false;
    const later = await runCli(['replay', '--dir', spoolDir, '--ignore-recorded-url'], {
      env: replayEnv(server),
    });
    await expectEverythingSent(later, spoolDir, server, 5);
  });

  it('takes over the claim of a killed replay whose pid now belongs to another running process', async () => {
    const { server, stall } = await stallingServer();
    started = server;
    const { spoolDir } = await spoolFromDeadServer(server.apiKey, 5);
    const { holder, claim } = await replayHoldingTheSpool(spoolDir, server);
    await kill(holder.child);
    // The pid comes back as another process (this one), which is running: the claim a
    // real replay left now names it, as after pid reuse. Everything else stays as recorded.
    const reused = claim.replace(/\.ndjson\.\d+/, `.ndjson.${process.pid}`);
    fs.renameSync(path.join(spoolDir, claim), path.join(spoolDir, reused));

    stall.on = false;
    const later = await runCli(['replay', '--dir', spoolDir, '--ignore-recorded-url'], {
      env: replayEnv(server),
    });
    await expectEverythingSent(later, spoolDir, server, 5);
  });

  it.runIf(canUnshare)(
    'takes over the claim of a killed replay that was pid 1 from a later replay that is pid 1 too, as in containers, once its --timeout has passed',
    async () => {
      const { server, stall } = await stallingServer();
      started = server;
      const { spoolDir } = await spoolFromDeadServer(server.apiKey, 5);
      const args = ['--dir', spoolDir, '--ignore-recorded-url'];
      const first = replayAsPidOne(args, replayEnv(server));
      const claim = await waitFor('the claim', () => claimIn(spoolDir));
      await kill(first.child);
      stall.on = false;

      // Another container cannot see whether that replay still runs: its claim holds until its
      // --timeout ends, and a minute of grace after; the line names when it will be taken over.
      const meanwhile = await replayAsPidOne(args, replayEnv(server)).exited;
      expect(meanwhile.code).toBe(1);
      const until = Number(/-(\d+)\.replaying$/.exec(claim)![1]);
      expect(meanwhile.stderr).toContain(
        `is held by a replay on another machine or in another container (pid 1); a replay will take it over after ${new Date(until + 60_000).toISOString()}; it was left alone`,
      );
      expect(fs.readdirSync(spoolDir)).toEqual([claim]);

      // As though that --timeout had ended an hour ago: the time is all that is faked.
      const expired = claim.replace(/-\d+\.replaying$/, `-${Date.now() - 3_600_000}.replaying`);
      fs.renameSync(path.join(spoolDir, claim), path.join(spoolDir, expired));
      const later = await replayAsPidOne(args, replayEnv(server)).exited;
      await expectEverythingSent(later, spoolDir, server, 5);
    },
  );

  it('takes over the open spool file of a killed reporter whose pid now belongs to another running process', async () => {
    started = await startTestServer();
    const spoolDir = tempDir('testrun-killed-reporter-');
    const reporter = spawn(process.execPath, ['--input-type=module', '-e', SPOOLING_REPORTER], {
      cwd: REPO_ROOT,
      env: { ...process.env, KEY: started.apiKey, URL: await closedPortUrl(), SPOOL: spoolDir },
      stdio: 'ignore',
    });
    onTestFinished(() => {
      if (reporter.exitCode === null && reporter.signalCode === null) reporter.kill('SIGKILL');
    });
    const open = await waitFor('both batches in the open spool file', () => {
      const name = fs.readdirSync(spoolDir).find((file) => file.endsWith('.ndjson.open'));
      const lines = name ? fs.readFileSync(path.join(spoolDir, name), 'utf8').split('\n') : [];
      return lines.filter((line) => line.startsWith('{"type":"batch"')).length === 2 ? name : undefined;
    });
    await kill(reporter);
    const file = path.join(spoolDir, open);
    const [runLine, ...batches] = fs.readFileSync(file, 'utf8').split('\n');
    // The pid comes back as another running process (this one); the rest stays as the reporter wrote it.
    const reused = { ...JSON.parse(runLine!), pid: process.pid };
    fs.writeFileSync(file, [JSON.stringify(reused), ...batches].join('\n'));

    const later = await runCli(['replay', '--dir', spoolDir, '--ignore-recorded-url'], {
      env: replayEnv(started),
    });
    await expectEverythingSent(later, spoolDir, started, 10, { completed: false });
  });
});

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** A reporter whose service is down: it spools two batches as it goes, then runs on until killed. */
const SPOOLING_REPORTER = `
import { RunReporter } from '@testrun/core';
const reporter = new RunReporter({
  options: { apiKey: process.env.KEY, baseUrl: process.env.URL, ciTags: false, spoolDir: process.env.SPOOL, batchSize: 5, flushInterval: 0, maxRetries: 0 },
  framework: { name: 'vitest', version: '4.0.0' },
  rootDir: process.cwd(),
  env: {},
  write: () => {},
});
reporter.startRun();
reporter.addResults(Array.from({ length: 10 }, (_, i) => ({ testSuite: 's', testCase: 'case ' + i, status: 'passed', duration: 1 })));
setInterval(() => {}, 1000);
`;

describe('testrun replay and a spool file that is not what a reporter writes', () => {
  it('sets it aside as .bad, names it and its line, sends every other file, and leaves nothing claimed', async () => {
    started = await startTestServer();
    const deadUrl = await closedPortUrl();
    const spoolDir = tempDir('testrun-bad-spool-');
    for (const suite of ['a.test.ts', 'b.test.ts']) {
      const { reporter } = createReporter(deadUrl, started.apiKey, {
        spoolDir,
        flushTimeout: 300,
        batchSize: 10,
      });
      reporter.startRun();
      reporter.addResults(makeResults(5, suite));
      await reporter.endRun();
    }
    // Valid JSON of the wrong shape, first in line: before, every replay crashed on it.
    const bad = path.join(spoolDir, '2000-01-01T00-00-00-000Z-bad00001.ndjson');
    const badText = [
      JSON.stringify({
        type: 'run',
        runId: null,
        run: { project: 'p', framework: 'vitest', tags: [] },
        idempotencyKey: 'k',
        baseUrl: deadUrl,
        createdAt: '2000-01-01T00:00:00.000Z',
      }),
      JSON.stringify({ type: 'batch', idempotencyKey: 'k1', results: null }),
      '',
    ].join('\n');
    fs.writeFileSync(bad, badText);
    const env = replayEnv(started);

    const first = await runCli(['replay', '--dir', spoolDir, '--ignore-recorded-url'], { env });
    expect(first.stderr).toBe(
      `testrun replay: ${bad} is not a spool file a reporter writes (line 2: results must be a non-empty array, got null); it was set aside as ${bad}.bad and not sent. Fix that line and rename the file back to send it, or delete it.\n`,
    );
    expect(first.code).toBe(1);
    expect(first.stdout).toBe(
      `testrun replay: 10 results delivered from 2 spool files, 2 runs completed; 0 remain in ${spoolDir}\n`,
    );
    expect(fs.readdirSync(spoolDir)).toEqual([`${path.basename(bad)}.bad`]);
    expect(fs.readFileSync(`${bad}.bad`, 'utf8')).toBe(badText);
    expect(await started.server.store.runs()).toHaveLength(2);
    expect(await started.server.store.allResults()).toHaveLength(10);

    // It stays named, and the exit code says results remain, until someone fixes or deletes it.
    const again = await runCli(['replay', '--dir', spoolDir, '--ignore-recorded-url'], { env });
    expect(again.code).toBe(1);
    expect(again.stdout).toBe(`testrun replay: nothing to send in ${spoolDir}\n`);
    expect(again.stderr).toBe(
      `testrun replay: ${bad}.bad was set aside by an earlier replay: its lines are not what a reporter writes. Fix it and rename it to ${bad} to send it, or delete it.\n`,
    );
  });
});
