import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import {
  CLI_BIN,
  cleanEnv,
  closedPortUrl,
  collectOutput,
  fixtures,
  PYTEST_RESULTS,
  startTestServer,
  type TestServer,
  tempDir,
} from '@testrun/test-utils';
import { htmlElements, renderGfm } from '@testrun/test-utils/gfm';
import { describe, expect, it } from 'vitest';

// `testrun run -- <command…>` with commands that are small Node programs and `testrun upload`:
// what testrun itself does around a command (docs/design/testrun-run.md). Real runners inside it are
// compat/packed/documented-runs.test.ts's (each framework's quick start) and e2e/testrun-run.test.ts's
// (a runner cancelled: SIGTERM reaching the whole group, 143, the run interrupted). SIGHUP and
// SIGQUIT take the same path as SIGINT and SIGTERM (run-command.ts).

const pytestReport = path.join(fixtures.junit, 'pytest.xml');

function runEnv(server: { url: string; apiKey: string }, extra: Record<string, string> = {}) {
  return cleanEnv({
    TESTRUN_API_KEY: server.apiKey,
    TESTRUN_BASE_URL: server.url,
    TESTRUN_SPOOL_DIR: tempDir('testrun-run-'),
    TESTRUN_SUMMARY: path.join(tempDir('testrun-run-'), 'summary.md'),
    ...extra,
  });
}

/** `node -e <program>`, the command of most tests here. */
const node = (program: string) => [process.execPath, '-e', program];

interface Started {
  pid: number;
  stdout(): string;
  stderr(): string;
  /** Exit code and signal, once testrun has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves once `text` is in stdout. */
  printed(text: string): Promise<void>;
}

/** Starts `testrun run [flags] -- command` with `input` piped to it (none: closed). */
function startRun(
  command: string[],
  env: NodeJS.ProcessEnv,
  { flags = [] as string[], input = '' } = {},
): Started {
  const child = spawn(process.execPath, [CLI_BIN, 'run', ...flags, '--', ...command], {
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end(input);
  const output = collectOutput(child);
  const exited = once(child, 'exit').then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as NodeJS.Signals | null,
  }));
  return {
    pid: child.pid!,
    stdout: output.stdout,
    stderr: output.stderr,
    exited,
    printed: (text) =>
      new Promise((resolve, reject) => {
        const check = () => output.stdout().includes(text) && resolve();
        child.stdout.on('data', check);
        exited.then(() => reject(new Error(`exited before printing ${text}: ${output.stderr()}`)));
        check();
      }),
  };
}

async function runToEnd(command: string[], env: NodeJS.ProcessEnv, options?: Parameters<typeof startRun>[2]) {
  const started = startRun(command, env, options);
  const { code } = await started.exited;
  return { code, stdout: started.stdout(), stderr: started.stderr() };
}

async function onlyRun(server: TestServer) {
  const runs = await server.server.store.runs();
  expect(runs).toHaveLength(1);
  return runs[0]!;
}

const completions = (server: TestServer) =>
  server.server.requests.filter((request) => request.route === 'completeRun');

/** The summary file as a reader sees it rendered: its headings' and paragraphs' text. */
function summaryText(env: NodeJS.ProcessEnv): string[] {
  return htmlElements(renderGfm(fs.readFileSync(env.TESTRUN_SUMMARY!, 'utf8')))
    .filter((element) => ['h3', 'p', 'tr', 'sub'].includes(element.tag))
    .map((element) => element.text.replace(/\s+/g, ' ').trim());
}

describe.concurrent('testrun run', () => {
  it("exits with the command's own code, its input and output passed through, every report inside it in the one run, ended and summarized", async () => {
    const server = await startTestServer();
    const env = runEnv(server, { PATH: process.env.PATH! });
    const echo = `${process.execPath} -e "let s='';process.stdin.on('data',(d)=>s+=d).on('end',()=>{console.log('got '+s+' in '+process.env.TESTRUN_RUN_ID);console.error('to stderr')})"`;
    const upload = `${process.execPath} ${CLI_BIN} upload ${pytestReport}`;
    const { code, stdout, stderr } = await runToEnd(['sh', '-c', `${echo} && ${upload} && exit 3`], env, {
      flags: ['--project', 'api'],
      input: 'typed',
    });

    expect(code, stderr).toBe(3);
    const run = await onlyRun(server);
    expect(run).toMatchObject({ project: 'api', framework: 'command' });
    // The run, as every reporter inside reads it: its id and what the service announced.
    expect(stdout).toBe(
      `got typed in ${run.id};extensions=failure-details,complete-run,read-runs,attachments,quarantine;attachment-limits=104857600/1073741824\n`,
    );
    expect(stderr).toContain('to stderr\n');
    // upload sent into the given run and left its end to testrun run: one end, by the command.
    const stored = await server.server.store.results(run.id);
    expect(stored).toHaveLength(PYTEST_RESULTS.length);
    expect(completions(server)).toHaveLength(1);
    expect(await server.server.store.endOf(run.id)).toMatchObject({ status: 'failed' });
    expect(stderr).toContain(
      `testrun run: run ${run.id} marked failed (the command exited 3) ${server.url}/runs/${run.id}\n`,
    );
    // The summary counts what the service stored: the whole run, read back.
    const failed = stored.filter((result) => result.status === 'failed').length;
    const passed = stored.filter((result) => result.status === 'passed').length;
    const shown = summaryText(env);
    expect(shown[0]).toBe('❌ api · command: failed');
    expect(shown[1]).toMatch(
      new RegExp(`^${failed} failed · ${passed} passed · .*${stored.length} tests · `),
    );
    expect(shown.at(-1)).toBe(`testrun · Run ${run.id} · these counts are the whole run`);
    expect(`${stdout}${stderr}${fs.readFileSync(env.TESTRUN_SUMMARY!, 'utf8')}`).not.toContain(server.apiKey);
  });

  it('exits 127 for a command that is not found, as a shell does, and says so in one line', async () => {
    const server = await startTestServer();
    const { code, stderr } = await runToEnd(['no-such-command-4711', 'x'], runEnv(server));
    expect(code).toBe(127);
    expect(stderr).toContain('testrun run: no-such-command-4711: command not found\n');
    expect(await server.server.store.endOf((await onlyRun(server)).id)).toMatchObject({ status: 'failed' });
  });

  it('with the service down, runs the command as it would without testrun, and one line says so', async () => {
    const url = await closedPortUrl();
    const env = runEnv({ url, apiKey: 'down-key-123' });
    const printEnv = node("console.log(process.env.TESTRUN_RUN_ID ?? 'no run'); process.exit(1)");
    const { code, stdout, stderr } = await runToEnd(printEnv, env);
    expect(code).toBe(1);
    expect(stdout).toBe('no run\n');
    expect(stderr).toMatch(
      /^testrun run: the run could not be created \(.*ECONNREFUSED.*\): the command runs as it would without testrun run/m,
    );
    expect(summaryText(env)[0]).toMatch(/: not created$/);
    expect(stderr).not.toContain('down-key-123');
  });

  it('without an API key, runs the command alone and says so once', async () => {
    const env = cleanEnv({ TESTRUN_SUMMARY: path.join(tempDir('testrun-run-'), 'summary.md') });
    const { code, stdout, stderr } = await runToEnd(
      node("console.log(process.env.TESTRUN_RUN_ID ?? 'no run')"),
      env,
    );
    expect({ code, stdout, stderr }).toEqual({
      code: 0,
      stdout: 'no run\n',
      stderr: 'testrun run: TESTRUN_API_KEY is not set: the command runs without a run around it.\n',
    });
  });

  it('given a run in TESTRUN_RUN_ID, reports into it and leaves its end to the job that created it', async () => {
    const server = await startTestServer();
    const created = await fetch(`${server.url}/api/v1/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
      body: '{"project":"p","framework":"vitest"}',
    });
    const { id: runId } = (await created.json()) as { id: string };
    const env = runEnv(server, { TESTRUN_RUN_ID: runId });
    const { code, stdout } = await runToEnd(node('console.log(process.env.TESTRUN_RUN_ID)'), env);
    expect({ code, stdout }).toEqual({ code: 0, stdout: `${runId}\n` });
    expect(await server.server.store.runs()).toHaveLength(1);
    expect(completions(server)).toEqual([]);
    expect(fs.existsSync(env.TESTRUN_SUMMARY!)).toBe(false);
  });
});

describe.concurrent('testrun run and signals', () => {
  /**
   * A command whose process starts a second one (as npx starts the runner): each prints the
   * signal it gets, and ends by `exitWith` (a code, or 'default' to die of it), ignoring
   * SIGTERM with 'ignore-term' until a second signal.
   */
  function family(behaviour: 'default' | 'exit-130' | 'ignore-term') {
    const handler =
      behaviour === 'default'
        ? ''
        : behaviour === 'exit-130'
          ? "process.on('SIGINT',()=>{console.log(name+' got SIGINT');process.exit(130)});"
          : "let n=0;process.on('SIGTERM',()=>{console.log(name+' got SIGTERM '+(++n));if(n===2)process.exit(0)});";
    const program = (name: string) =>
      `const name='${name}';${handler}setInterval(()=>{},1000);console.log(name+' ready');`;
    const parent = `${program('parent')}const c=require('node:child_process').spawn(process.execPath,['-e',${JSON.stringify(program('child'))}],{stdio:'inherit'});c.on('exit',(code,signal)=>{console.log('child ended '+(signal??code))});`;
    return node(parent);
  }

  it("exits with the command's own code when it ends itself on SIGINT", async () => {
    const server = await startTestServer();
    const started = startRun(family('exit-130'), runEnv(server));
    await started.printed('child ready');
    process.kill(started.pid, 'SIGINT');
    expect((await started.exited).code).toBe(130);
    expect(await server.server.store.endOf((await onlyRun(server)).id)).toMatchObject({
      status: 'interrupted',
    });
    // Each process of the command got it once: from testrun, to the group.
    expect(started.stdout().match(/got SIGINT/g)).toHaveLength(2);
  });

  it('waits for a command that ignores SIGTERM, and forwards a second signal too', async () => {
    const server = await startTestServer();
    const started = startRun(family('ignore-term'), runEnv(server));
    await started.printed('child ready');
    process.kill(started.pid, 'SIGTERM');
    // Both must have taken the first before the second is sent: two of one signal pending in a
    // process are delivered once, and the child would wait for a second forever.
    await started.printed('parent got SIGTERM 1');
    await started.printed('child got SIGTERM 1');
    process.kill(started.pid, 'SIGTERM');
    expect((await started.exited).code).toBe(0);
    expect(started.stdout()).toContain('parent got SIGTERM 2');
    // Cancelled, whatever the command made of it.
    expect(await server.server.store.endOf((await onlyRun(server)).id)).toMatchObject({
      status: 'interrupted',
    });
  });
});
