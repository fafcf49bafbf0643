import type { TestrunOptions } from '@testrun/core';

/** The formatter whose console output is kept when @testrun/cucumber holds stdout: Cucumber's own default. */
export const DEFAULT_CONSOLE_FORMATTER = 'progress';

/** testrun's options, plus `formatter`: the Cucumber formatter whose console output is kept (default `progress`). */
export type TestrunCucumberOptions = TestrunOptions & { formatter?: string };

export interface SplitOptions {
  /** testrun's own options, for core to check (unknown names are its to report). */
  testrun: Record<string, unknown>;
  /** The formatter that writes the console output, when ours holds stdout. */
  formatter: string;
}

/**
 * Cucumber hands every formatter the same `formatOptions`; ours are under `testrun`
 * (`--format-options '{"testrun":{"project":"web"}}'`), as the html and junit formatters
 * keep theirs under their own names. Options given in code (createFormatter) come first;
 * formatOptions win over them.
 */
export function splitOptions(defaults: TestrunCucumberOptions, formatOptions: unknown): SplitOptions {
  const given =
    formatOptions && typeof formatOptions === 'object'
      ? (formatOptions as { testrun?: unknown }).testrun
      : undefined;
  const merged: Record<string, unknown> = {
    ...defaults,
    ...(given && typeof given === 'object' ? given : {}),
  };
  const { formatter, ...testrun } = merged;
  return {
    testrun,
    formatter:
      typeof formatter === 'string' && formatter.trim() !== '' ? formatter.trim() : DEFAULT_CONSOLE_FORMATTER,
  };
}

/**
 * What the command line says about the run, where it says it: `--dry-run` (`-d`) and
 * `--strict`/`--no-strict`. A profile can say them too, which a formatter cannot see;
 * the messages then decide (map-envelopes.ts).
 */
export function hintsFromArgv(argv: readonly string[]): { dryRun?: boolean; strict?: boolean } {
  const hints: { dryRun?: boolean; strict?: boolean } = {};
  for (const arg of argv) {
    if (arg === '--') break;
    if (arg === '--dry-run' || arg === '-d') hints.dryRun = true;
    else if (arg === '--strict') hints.strict = true;
    else if (arg === '--no-strict') hints.strict = false;
  }
  return hints;
}
