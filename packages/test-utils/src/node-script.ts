import { runProcess } from './spawn.js';

/**
 * Runs `source` as an ES module in a fresh Node process (from the repo root, so
 * `@testrun/core` resolves to the build) and parses the last line it prints as JSON.
 * For what only a process of its own shows: exit handlers, signals, garbage collection,
 * what is left running.
 */
export async function runNodeScript<T>(
  source: string,
  { env = {}, nodeArgs = [] }: { env?: Record<string, string>; nodeArgs?: string[] } = {},
): Promise<{ code: number | null; stderr: string; result: T }> {
  const outcome = await runProcess(process.execPath, [...nodeArgs, '--input-type=module', '-e', source], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
  });
  const last = outcome.stdout.trim().split('\n').at(-1) ?? '';
  let result: T;
  try {
    result = JSON.parse(last) as T;
  } catch {
    throw new Error(
      `the script printed no JSON last line (exit ${outcome.code}):\n${outcome.stdout}\n${outcome.stderr}`,
    );
  }
  return { code: outcome.code, stderr: outcome.stderr, result };
}

const REPO_ROOT = new URL('../../../', import.meta.url).pathname;
