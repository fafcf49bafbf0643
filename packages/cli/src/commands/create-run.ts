import { randomUUID } from 'node:crypto';
import { ciTags, openService, type ResolvedConfig, userAgent } from '@testrun/core';
import { resolveCliConfig, TLS_FLAGS, tlsOptions, tlsUsage } from '../cli-config.js';
import { defineCommand, type Output, UsageError } from '../command.js';

const usage = `Usage: testrun create-run --framework <name> [options]

Creates a run and prints only its id on stdout, so shards and parallel jobs can
report into one run:

  export TESTRUN_RUN_ID=$(npx testrun create-run --project web --framework vitest)

Reads TESTRUN_API_KEY and TESTRUN_BASE_URL from the environment.

Options:
  --project <name>     the run's project (default: TESTRUN_PROJECT, else the
                       name in the nearest package.json)
  --framework <name>   the test framework, e.g. vitest or jest (required)
  --tags <a,b>         comma-separated tags (default: TESTRUN_TAGS); CI tags
                       (ci:, branch:, commit:, build:) are added
  --no-ci-tags         do not add CI tags
${tlsUsage(23)}
  -h, --help           show this help
`;

export const createRun = defineCommand({
  name: 'create-run',
  summary: 'create a run and print its id, for CI jobs that report into one run',
  usage,
  options: {
    project: { type: 'string' },
    framework: { type: 'string' },
    tags: { type: 'string' },
    'no-ci-tags': { type: 'boolean' },
    ...TLS_FLAGS,
  },
  run: async ({ values, output }) => {
    const framework = values.framework?.trim();
    if (!framework) throw new UsageError('--framework is required, e.g. --framework vitest');
    const tags = values.tags
      ?.split(',')
      .map((tag) => tag.trim())
      .filter(Boolean);
    const config = resolveCliConfig(
      { project: values.project, tags, ciTags: !values['no-ci-tags'], ...tlsOptions(values) },
      output,
    );
    if (!config) return 1;
    const runId = await createRunAndGetId(config, framework, output);
    if (runId === undefined) return 1;
    output.out(`${runId}\n`);
    return 0;
  },
});

async function createRunAndGetId(
  config: ResolvedConfig,
  framework: string,
  output: Output,
): Promise<string | undefined> {
  const service = openService({ ...config, userAgent: userAgent('cli'), env: process.env });
  service.deadline.start(config.flushTimeout);
  try {
    const moreTags = config.ciTags ? await ciTags(process.env, process.cwd()) : [];
    const run = { project: config.project, framework, tags: config.tags };
    const outcome = await service.createRun(run, randomUUID(), { moreTags });
    if (outcome.kind === 'ok') return outcome.runId;
    output.error(`the run could not be created: ${outcome.error.message}`);
    return undefined;
  } finally {
    await service.close();
  }
}
