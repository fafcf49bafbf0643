import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { collectOutput } from './process.js';
import { startTestServer, type TestServer } from './server.js';
import { whenTheTestEnds } from './test-scope.js';

/** How long the CLI's output may still arrive after it exited. */
const OUTPUT_AFTER_EXIT_MS = 10_000;

/** The built `testrun` command, for a hook that runs it with runProcess (runCli works inside a test only). */
export const CLI_BIN = fileURLToPath(new URL('../../cli/bin/testrun.js', import.meta.url));

export interface CliProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of `pattern` in stdout, waiting for more output as needed. */
  waitForStdout(pattern: RegExp): Promise<RegExpMatchArray>;
  /** Resolves with the exit code once the process has exited. */
  exited(): Promise<number | null>;
}

export interface CliOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Node's own arguments, before the CLI's file: `traceModules().nodeArgs`, say. */
  nodeArgs?: string[];
}

/** Starts `testrun <args>` as a real child process (built CLI), killed if still running when the test ends. */
export function startCli(args: string[], options: CliOptions = {}): CliProcess {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), CLI_BIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: options.env ?? process.env,
    cwd: options.cwd,
  });
  const output = collectOutput(child);
  // 'exit' may come before the last of the output is read (a loaded machine: `testrun plan`'s
  // line was missing from stderr once in CI); 'close' comes after it. Bounded, for a child the
  // CLI started that outlives it holding the pipes.
  // A spawn that fails rejects `exit` below, which the caller awaits: not this too.
  const closed = once(child, 'close').catch(() => undefined);
  const exit = once(child, 'exit').then(async ([code]) => {
    await Promise.race([closed, delay(OUTPUT_AFTER_EXIT_MS, undefined, { ref: false })]);
    return code as number | null;
  });
  // Not in a test (a beforeAll): the run is awaited there.
  whenTheTestEnds(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });

  return {
    child,
    stdout: output.stdout,
    stderr: output.stderr,
    exited: () => exit,
    waitForStdout: (pattern) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const match = output.stdout().match(pattern);
          if (!match) return;
          child.stdout.off('data', check);
          resolve(match);
        };
        child.stdout.on('data', check);
        exit.then((code) =>
          reject(new Error(`testrun exited (${code}) before printing ${pattern}:\n${output.stderr()}`)),
        );
        check();
      }),
  };
}

/** Runs `testrun <args>` to completion. */
export async function runCli(
  args: string[],
  options: CliOptions = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const cli = startCli(args, options);
  const code = await cli.exited();
  return { code, stdout: cli.stdout(), stderr: cli.stderr() };
}

/**
 * `testrun replay` of the spool in `dir` into `server`, as a CI step after the job sends it: only
 * the server's key and URL in its environment; `args`, more flags.
 */
export function replaySpool(
  dir: string,
  server: Pick<TestServer, 'url' | 'apiKey'>,
  args: readonly string[] = [],
): ReturnType<typeof runCli> {
  return runCli(['replay', '--dir', dir, ...args], {
    env: { PATH: process.env.PATH, TESTRUN_API_KEY: server.apiKey, TESTRUN_BASE_URL: server.url },
  });
}

/**
 * `testrun replay` of the spool in `dir` into a fresh server that takes `apiKey` (the URL the
 * spool recorded is a dead one's, so it is ignored): the server, to read what it stored, and
 * replay's outcome. The server closes when the test ends.
 */
export async function replayInto(
  dir: string,
  apiKey: string,
): Promise<{ server: TestServer; replayed: Awaited<ReturnType<typeof runCli>> }> {
  const server = await startTestServer({ apiKey });
  const replayed = await replaySpool(dir, server, ['--ignore-recorded-url']);
  return { server, replayed };
}
