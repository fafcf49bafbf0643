import { endRun, parseRunHandle, RUN_END_STATUSES, type RunEndStatus, userAgent } from '@testrun/core';
import { resolveCliConfig, TLS_FLAGS } from '../cli-config.js';
import { defineCommand, UsageError } from '../command.js';
import { summarizeRun } from './summary.js';

export const completeRun = defineCommand({
  name: 'complete-run',
  about: `
Completes a run that shards or parallel jobs shared (TESTRUN_RUN_ID): reporters never
complete a run they did not create, so a job after the shards completes it once every
shard has reported:

  npx @testrun/cli complete-run --status failed     # the run in TESTRUN_RUN_ID

Sends PATCH {base}/api/v1/runs/{runId} with {"status":"…"}, or the request that
TESTRUN_COMPLETE_RUN describes as JSON ({ "method", "path", "body" }). Given the run as
\`testrun create-run\` prints it, it sends nothing to a service that did not announce
completing runs (one line says so, exit code 0). It then writes the run's CI summary
($GITHUB_STEP_SUMMARY on GitHub Actions, TESTRUN_SUMMARY elsewhere), as testrun summary does.
Reads TESTRUN_API_KEY and TESTRUN_BASE_URL from the environment.
`,
  flags: {
    'run-id': { type: 'string', value: '<id>', help: 'the run to complete (default: TESTRUN_RUN_ID)' },
    status: {
      type: 'string',
      value: '<status>',
      default: 'completed',
      help: 'how the run ended: completed, failed (a test failed) or interrupted (a job was cancelled)',
    },
    ...TLS_FLAGS,
  },
  run: async ({ values, options, output }) => {
    const status = values.status as RunEndStatus;
    if (!RUN_END_STATUSES.includes(status)) {
      throw new UsageError(`--status must be completed, failed or interrupted, got "${values.status}"`);
    }
    const config = resolveCliConfig(options, output);
    if (!config) return 1;
    const given = values['run-id']?.trim();
    const { runId, extensions } = given
      ? parseRunHandle(given)
      : { runId: config.runId, extensions: config.runExtensions };
    if (!runId) throw new UsageError('--run-id is required (or TESTRUN_RUN_ID): the run to complete');
    // Asked for: a bare id is asked; a handle that says the service does not complete runs is not.
    const ended = await endRun({
      config,
      runId,
      extensions,
      status,
      asked: true,
      userAgent: userAgent('cli'),
    });
    // The job that ends the run writes its summary, told or not ($GITHUB_STEP_SUMMARY, TESTRUN_SUMMARY).
    if (config.summary !== false)
      await summarizeRun(config, runId, extensions, status, output, { toStdout: false });
    switch (ended.state) {
      case 'sent':
        output.out(`testrun complete-run: run ${runId} completed: ${status}\n`);
        return 0;
      case 'not-announced':
      case 'off':
        output.out(
          `testrun complete-run: the service did not announce completing runs when run ${runId} was created; nothing was sent\n`,
        );
        return 0;
      default:
        output.error(`the run could not be completed: ${ended.error.message}`);
        return 1;
    }
  },
});
