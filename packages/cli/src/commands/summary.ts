import {
  gatherRun,
  parseRunHandle,
  type ResolvedConfig,
  type SummaryRun,
  userAgent,
  writeRunSummary,
} from '@testrun/core';
import { resolveCliConfig, TLS_FLAGS } from '../cli-config.js';
import { defineCommand, type Output, UsageError } from '../command.js';

export const summary = defineCommand({
  name: 'summary',
  about: `
Writes the CI summary of a run in Markdown: its state and page, counts by status with flaky
tests apart, the failed tests with why, the flaky ones and the slowest. For a run that shards
or parallel jobs shared, in the job after them:

  npx @testrun/cli summary --run "$TESTRUN_RUN_ID"

It reads the whole run from the service where the service offers reads (the local service
does); elsewhere it says it knows only the run's id. Appends to $GITHUB_STEP_SUMMARY on
GitHub Actions, to --summary or TESTRUN_SUMMARY elsewhere, else prints it on stdout
(npx @testrun/cli summary --run … | buildkite-agent annotate). "testrun run" and
"testrun complete-run" write it themselves.
Reads TESTRUN_API_KEY and TESTRUN_BASE_URL from the environment.
`,
  flags: {
    run: {
      type: 'string',
      value: '<id>',
      help: 'the run, as testrun create-run prints it (default: TESTRUN_RUN_ID)',
    },
    summary: { type: 'string', value: '<path>', option: 'summary' },
    ...TLS_FLAGS,
  },
  run: async ({ values, options, output }) => {
    const config = resolveCliConfig(options, output);
    if (!config) return 1;
    const given = values.run?.trim();
    const { runId, extensions } = given
      ? parseRunHandle(given)
      : { runId: config.runId, extensions: config.runExtensions };
    if (!runId) throw new UsageError('--run is required (or TESTRUN_RUN_ID): the run to summarize');
    await summarizeRun(config, runId, extensions, undefined, output);
    return 0;
  },
});

/**
 * The summary of a run this process did not report into (`testrun summary`, `testrun
 * complete-run`): read from the service, written where the summary goes, or on stdout when it
 * goes nowhere and `toStdout`. `state`: how the run ended, when this process just ended it.
 */
export async function summarizeRun(
  config: ResolvedConfig,
  runId: string,
  extensions: readonly string[] | undefined,
  state: SummaryRun['state'] | undefined,
  output: Output,
  { toStdout = true }: { toStdout?: boolean } = {},
): Promise<void> {
  const gathered = await gatherRun({ config, runId, extensions, userAgent: userAgent('cli') });
  if (!gathered.covers.whole) output.error(`the summary holds the run's id alone: ${gathered.covers.why}.`);
  const run: SummaryRun = {
    project: gathered.project ?? config.project,
    framework: gathered.framework ?? 'tests',
    runId,
    pageUrl: gathered.pageUrl,
    state: state ?? knownState(gathered.state),
    durationMs: gathered.durationMs,
  };
  const log = (line: string) => output.error(line);
  const print = config.summary === false && toStdout ? (markdown: string) => output.out(markdown) : undefined;
  await writeRunSummary(config, run, gathered, log, print);
}

function knownState(state: string | undefined): SummaryRun['state'] {
  const known = ['completed', 'failed', 'interrupted', 'running', 'abandoned'] as const;
  return known.find((name) => name === state) ?? 'unknown';
}
