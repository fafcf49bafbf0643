import { inject } from 'vitest';

// The e2e files that hold a rule for every runner (a signal mid-run, a misbehaving service, the
// key never printed, a monorepo's names…) run in two Vitest projects: `main` (`pnpm test`) runs
// their Vitest legs; `compat` (`pnpm test:compat`) runs every other runner's, Jest's among them,
// beside the version matrix. vitest.config.ts provides which. So each rule stays in one file,
// and `pnpm test` pays for one runner of it, not ten. Jest's own files (the parity fixture
// beside Vitest's, its config files, results after the end, testrun run around it) stay in
// `pnpm test`.

declare module 'vitest' {
  export interface ProvidedContext {
    /** True in the project that runs the legs of every runner but Vitest. */
    otherRunnersLegs: boolean;
  }
}

/** Whether this Vitest project runs `runner`'s legs of the shared e2e matrices. */
export function runsLegsOf(runner: string): boolean {
  return (runner === 'vitest') !== (inject('otherRunnersLegs') ?? false);
}

/** The rows of a matrix whose runner (`runnerOf(row)`) this project runs. */
export function legsHere<Row>(rows: readonly Row[], runnerOf: (row: Row) => string): Row[] {
  return rows.filter((row) => runsLegsOf(runnerOf(row)));
}

/** Whether this is `pnpm test`'s project, which runs a shared file's tests of no runner's (the CLI's, the service's). */
export function inPnpmTest(): boolean {
  return !(inject('otherRunnersLegs') ?? false);
}
