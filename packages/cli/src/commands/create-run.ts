import { randomUUID } from 'node:crypto';
import { ciTags, openService, type ResolvedConfig, userAgent } from '@testrun/core';
import { resolveCliConfig, TLS_FLAGS } from '../cli-config.js';
import { defineCommand, type Output } from '../command.js';

export const createRun = defineCommand({
  name: 'create-run',
  about: `
Creates a run and prints only its id on stdout, so shards and parallel jobs can
report into one run:

  export TESTRUN_RUN_ID=$(npx @testrun/cli create-run --project web --framework vitest)

With --env it prints variable lines instead, for a dotenv file ($GITHUB_ENV, GitLab's
dotenv artifact): TESTRUN_RUN_ID, and TESTRUN_FAILURE_DETAILS=always when the service
takes why a test failed (shards that join a run never see create-run's answer).

Reads TESTRUN_API_KEY and TESTRUN_BASE_URL from the environment.
`,
  flags: {
    project: { type: 'string', value: '<name>', option: 'project' },
    framework: {
      type: 'string',
      value: '<name>',
      required: true,
      help: 'the test framework, e.g. vitest or jest',
    },
    tags: { type: 'string', value: '<a,b>', option: 'tags' },
    'no-ci-tags': { type: 'boolean', negates: 'ciTags', help: 'do not add CI tags' },
    env: {
      type: 'boolean',
      help: 'print TESTRUN_RUN_ID=… (and TESTRUN_FAILURE_DETAILS=always when the service takes it) for a dotenv file',
    },
    ...TLS_FLAGS,
  },
  run: async ({ values, options, output }) => {
    const config = resolveCliConfig(options, output);
    if (!config) return 1;
    const created = await createRunAndGetId(config, values.framework.trim(), output);
    if (created === undefined) return 1;
    output.out(values.env ? envLines(created) : `${created.runId}\n`);
    return 0;
  },
});

interface CreatedRun {
  runId: string;
  acceptsFailureDetails: boolean;
}

/**
 * A shard given TESTRUN_RUN_ID creates no run, so it never reads the answer that announces the
 * failure-details extension; 'always' carries what the answer said to it.
 */
function envLines({ runId, acceptsFailureDetails }: CreatedRun): string {
  return `TESTRUN_RUN_ID=${runId}\n${acceptsFailureDetails ? 'TESTRUN_FAILURE_DETAILS=always\n' : ''}`;
}

async function createRunAndGetId(
  config: ResolvedConfig,
  framework: string,
  output: Output,
): Promise<CreatedRun | undefined> {
  const service = openService({ ...config, userAgent: userAgent('cli'), env: process.env });
  service.deadline.start(config.flushTimeout);
  try {
    const moreTags = config.ciTags ? await ciTags(process.env, process.cwd()) : [];
    const run = { project: config.project, framework, tags: config.tags };
    const outcome = await service.createRun(run, randomUUID(), { moreTags });
    if (outcome.kind === 'ok') return outcome;
    output.error(`the run could not be created: ${outcome.error.message}`);
    return undefined;
  } finally {
    await service.close();
  }
}
