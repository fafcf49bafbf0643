import type { Shard } from '@testrun/core';

/** What the `node` command line says about this run: its shard (`--test-shard=1/3`) and watch mode (`--watch`). */
export interface RunArgs {
  shard: Shard | undefined;
  watch: boolean;
}

/** The reporter runs in the process `node --test` started, so its flags are this process's own. */
export function runArgs(execArgv: readonly string[]): RunArgs {
  let shard: Shard | undefined;
  let watch = false;
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i]!;
    if (arg === '--watch' || arg.startsWith('--watch-path')) watch = true;
    const value =
      arg === '--test-shard' ? execArgv[i + 1] : arg.startsWith('--test-shard=') ? arg.slice(13) : undefined;
    const match = value === undefined ? null : /^(\d+)\/(\d+)$/.exec(value);
    if (match) shard = { index: Number(match[1]), count: Number(match[2]) };
  }
  return { shard, watch };
}
