import path from 'node:path';
import { parseArgs } from 'node:util';
import { Logger, replaySpool, userAgent } from '@testrun/core';
import { resolveCliConfig } from '../cli-config.js';
import { asUsageError, UsageError } from '../usage-error.js';

export const summary = 'send results that a run could not deliver and spooled';

export const usage = `Usage: testrun replay [options]

Sends the runs and results that reporters spooled when the service could not take
them, with the idempotency keys they were first sent with, so nothing is stored
twice. Delivered batches leave the spool; the rest stay for the next try. Exits 1
when something remains.

Reads TESTRUN_API_KEY from the environment; TESTRUN_BASE_URL, when set, overrides
the address each spool file was written with.

Options:
  --dir <dir>            the spool directory (default: TESTRUN_SPOOL_DIR, else
                         .testrun/spool)
  --timeout <seconds>    give up after this long; what is not sent stays in the
                         spool (default: 120)
  --allow-insecure-http  allow plain http to a host that is not this machine
  -h, --help             show this help
`;

export async function run(argv: string[]): Promise<number> {
  const { values } = asUsageError(() =>
    parseArgs({
      args: argv,
      options: {
        dir: { type: 'string' },
        timeout: { type: 'string', default: '120' },
        'allow-insecure-http': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }),
  );
  if (values.help) {
    process.stdout.write(usage);
    return 0;
  }
  const timeoutSeconds = Number(values.timeout);
  if (!(timeoutSeconds > 0))
    throw new UsageError(`--timeout must be a number of seconds above 0, got "${values.timeout}"`);
  // A spool file knows where it was going, so a base URL is only needed to override it.
  const config = resolveCliConfig(
    { spoolDir: values.dir, allowInsecureHttp: values['allow-insecure-http'] },
    false,
  );
  if (!config) return 1;

  const logger = new Logger();
  logger.redact(config.apiKey);
  const dir = values.dir ? path.resolve(values.dir) : config.spoolDir;
  const result = await replaySpool({
    dir,
    apiKey: config.apiKey,
    baseUrl: config.baseUrl || undefined,
    runIdPath: config.runIdPath,
    allowInsecureHttp: config.allowInsecureHttp,
    timeoutMs: timeoutSeconds * 1000,
    userAgent: userAgent('cli'),
    log: (line) => logger.line(line),
  });
  if (result.files === 0 && result.errors.length === 0) {
    process.stdout.write(`testrun replay: nothing to send in ${dir}\n`);
    return 0;
  }
  process.stdout.write(
    `testrun replay: ${result.delivered} results delivered from ${result.files} spool files; ${result.remaining} remain in ${dir}\n`,
  );
  if (result.remaining > 0 || result.errors.length > 0) {
    process.stderr.write(
      'testrun replay: some results could not be sent; they stay in the spool. Run it again later.\n',
    );
    return 1;
  }
  return 0;
}
