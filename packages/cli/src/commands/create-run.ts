import { randomUUID } from 'node:crypto';
import {
  type AttachmentLimits,
  ciTags,
  type Extension,
  formatRunHandle,
  openService,
  type ResolvedConfig,
  userAgent,
} from '@testrun/core';
import { resolveCliConfig, TLS_FLAGS } from '../cli-config.js';
import { defineCommand, type Output } from '../command.js';

export const createRun = defineCommand({
  name: 'create-run',
  about: `
Creates a run for shards and parallel jobs to report into, and prints it on stdout: its id,
and what the service announced it takes (why a test failed, completing the run, reading it
back, attached files and their limits), so every shard given it sends what the service
takes, as the process that created the run would:

  export TESTRUN_RUN_ID=$(npx @testrun/cli create-run --project web --framework vitest)
  # 8f3c1a2b-…;extensions=failure-details,complete-run,read-runs,attachments;attachment-limits=104857600/1073741824

The id alone is everything before the first ";". With --env it prints TESTRUN_RUN_ID=… for
a dotenv file ($GITHUB_ENV, GitLab's dotenv artifact). Complete the run once every shard
has reported: npx @testrun/cli complete-run --status failed.

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
      help: 'print TESTRUN_RUN_ID=… for a dotenv file ($GITHUB_ENV, GitLab)',
    },
    ...TLS_FLAGS,
  },
  run: async ({ values, options, output }) => {
    const config = resolveCliConfig(options, output);
    if (!config) return 1;
    const created = await createRunAndGetId(config, values.framework.trim(), output);
    if (created === undefined) return 1;
    const handle = formatRunHandle(created.runId, created.extensions, created.attachmentLimits);
    output.out(values.env ? `TESTRUN_RUN_ID=${handle}\n` : `${handle}\n`);
    return 0;
  },
});

async function createRunAndGetId(
  config: ResolvedConfig,
  framework: string,
  output: Output,
): Promise<
  { runId: string; extensions: Extension[]; attachmentLimits: AttachmentLimits | undefined } | undefined
> {
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
