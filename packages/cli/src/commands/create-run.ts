import { parseArgs } from 'node:util';
import {
  ciTags,
  createRun,
  Deadline,
  HttpClient,
  Logger,
  type ResolvedConfig,
  userAgent,
} from '@testrun/core';
import { resolveCliConfig } from '../cli-config.js';
import { asUsageError, UsageError } from '../usage-error.js';

export const summary = 'create a run and print its id, for CI jobs that report into one run';

export const usage = `Usage: testrun create-run --framework <name> [options]

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
  -h, --help           show this help
`;

export async function run(argv: string[]): Promise<number> {
  const { values } = asUsageError(() =>
    parseArgs({
      args: argv,
      options: {
        project: { type: 'string' },
        framework: { type: 'string' },
        tags: { type: 'string' },
        'no-ci-tags': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }),
  );
  if (values.help) {
    process.stdout.write(usage);
    return 0;
  }
  const framework = values.framework?.trim();
  if (!framework) throw new UsageError('--framework is required, e.g. --framework vitest');
  const tags = values.tags
    ?.split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);
  const config = resolveCliConfig({ project: values.project, tags, ciTags: !values['no-ci-tags'] });
  if (!config) return 1;

  const runId = await createRunAndGetId(config, framework);
  if (runId === undefined) return 1;
  process.stdout.write(`${runId}\n`);
  return 0;
}

async function createRunAndGetId(config: ResolvedConfig, framework: string): Promise<string | undefined> {
  const http = new HttpClient({
    baseUrl: config.baseUrl,
    apiKey: config.apiKey,
    userAgent: userAgent('cli'),
    env: process.env,
  });
  const deadline = new Deadline();
  deadline.start(config.flushTimeout);
  const tags = config.ciTags ? [...config.tags, ...(await ciTags(process.env, process.cwd()))] : config.tags;
  try {
    const outcome = await createRun(
      http,
      { project: config.project, framework, tags: [...new Set(tags)] },
      crypto.randomUUID(),
      config,
      deadline,
    );
    if (outcome.kind === 'ok') return outcome.runId;
    const logger = new Logger();
    logger.redact(config.apiKey);
    process.stderr.write(
      logger.clean(`testrun create-run: the run could not be created: ${outcome.error.message}\n`),
    );
    return undefined;
  } finally {
    deadline.dispose();
    await http.close();
  }
}
