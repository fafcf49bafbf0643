import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const requireFromHere = createRequire(import.meta.url);

export interface RunOutcome {
  code: number | null;
  /** The signal that ended the process, if one did. */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  durationMs: number;
}

/**
 * A run still going after this long is killed, and its promise rejects with its output. It is
 * stuck then, not slow: a run that ends costs nothing of this wait, and at a load of 20 a
 * Playwright run of the shop fixture passed the 90 s this was (vitest.config.ts's testTimeout
 * is longer, so that a stuck run's own error, with its output, is the one reported).
 */
export const RUN_TIMEOUT_MS = 180_000;
/** For a hook that awaits runs: long enough for a stuck run to time out with its output first. */
export const AWAIT_RUNS_TIMEOUT_MS = RUN_TIMEOUT_MS + 15_000;

/**
 * The file a package's `bin` of the same name (or `binName`) points to, as installed for `fromDir`
 * (this repo's install by default); the frameworks are run with Node directly from it:
 * no shell, no .bin shims. For the `node` package, that file is Node itself.
 */
export function frameworkBin(packageName: string, fromDir?: string, binName = packageName): string {
  const require = fromDir ? createRequire(path.join(fromDir, 'package.json')) : requireFromHere;
  const manifestPath = require.resolve(`${packageName}/package.json`);
  const { bin } = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as {
    bin: string | Record<string, string>;
  };
  const relative = typeof bin === 'string' ? bin : bin[binName];
  if (!relative) throw new Error(`${packageName} has no bin named ${binName}`);
  return path.join(path.dirname(manifestPath), relative);
}

/**
 * Runs a program (no shell) to completion and collects its output; it is killed, and the
 * promise rejects with what it printed, when it is still running after `timeoutMs`.
 */
export function runProcess(
  command: string,
  args: readonly string[],
  {
    cwd,
    env = process.env,
    timeoutMs = RUN_TIMEOUT_MS,
    onSpawn,
    wrap = [],
  }: {
    cwd?: string;
    env?: NodeJS.ProcessEnv;
    timeoutMs?: number;
    onSpawn?: (child: ChildProcess) => void;
    /** A command the process is run under, its program first: `testrun run --`. */
    wrap?: readonly string[];
  } = {},
): Promise<RunOutcome> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const [program, ...prefix] = [...wrap, command];
    const child = spawn(program!, [...prefix, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    onSpawn?.(child);
    const output = collectOutput(child);
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      const what = `${path.basename(command)} ${args.join(' ')}`;
      // Every line of the output behind a bar: Vitest reads a message's `at …` lines as the
      // error's own stack and looks up their source maps, and one it cannot parse (WebdriverIO
      // has such a file) replaced this error with its own.
      const printed = `${output.stdout()}\n${output.stderr()}`.replace(/^/gm, '│ ');
      reject(new Error(`${what} timed out after ${timeoutMs} ms in ${cwd ?? process.cwd()}\n${printed}`));
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const durationMs = Math.round(performance.now() - started);
      resolve({ code, signal, stdout: output.stdout(), stderr: output.stderr(), durationMs });
    });
  });
}

/** What a child process printed so far, on stdout and on stderr. */
export function collectOutput(child: ChildProcess): { stdout(): string; stderr(): string } {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return { stdout: () => stdout, stderr: () => stderr };
}

let coreless: string | undefined;

/**
 * A Node that dumps no core when a signal kills it (SIGQUIT, SIGABRT and others do, where the
 * machine allows core files: into the fixture's folder), for `runProcess` or a runner's
 * `nodePath`: a shell script, made once, that lowers the limit and `exec`s this Node, so the
 * process a test signals is Node itself.
 */
export function nodeWithoutCoreDumps(): string {
  if (!coreless) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'testrun-coreless-'));
    coreless = path.join(dir, 'node');
    fs.writeFileSync(coreless, `#!/bin/sh\nulimit -c 0\nexec ${JSON.stringify(process.execPath)} "$@"\n`, {
      mode: 0o755,
    });
  }
  return coreless;
}
