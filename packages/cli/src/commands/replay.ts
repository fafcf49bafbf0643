import path from 'node:path';
import { DEFAULT_REPLAY_TIMEOUT_MS, replaySpool, userAgent } from '@testrun/core';
import { resolveCliConfig, TLS_FLAGS, tlsOptions, tlsUsage } from '../cli-config.js';
import { defineCommand, UsageError } from '../command.js';

const DEFAULT_TIMEOUT_SECONDS = DEFAULT_REPLAY_TIMEOUT_MS / 1000;

const usage = `Usage: testrun replay [options]

Sends the runs and results that reporters spooled when the service could not take
them, with the idempotency keys they were first sent with, so nothing is stored
twice. Delivered batches leave the spool; the rest stay for the next try. Exits 1
when something remains. Files a running reporter is still writing, or another
replay holds, are left alone; those of a reporter or replay that died are taken
over. A file whose lines are not what a reporter writes is set aside as
<file>.bad, named, and not sent.

Reads TESTRUN_API_KEY and TESTRUN_BASE_URL from the environment. The key is sent
only to TESTRUN_BASE_URL: a spool file recorded for another service is skipped
with a line saying so, unless --ignore-recorded-url is given.

Options:
  --dir <dir>              the spool directory (default: TESTRUN_SPOOL_DIR, else
                           .testrun/spool; relative to the current directory)
  --timeout <seconds>      give up after this long; what is not sent stays in the
                           spool (default: ${DEFAULT_TIMEOUT_SECONDS})
  --ignore-recorded-url    send every spool file to TESTRUN_BASE_URL, whatever
                           service it was recorded for
  --allow-insecure-http    allow plain http to a host that is not this machine
${tlsUsage(27)}
  -h, --help               show this help
`;

export const replay = defineCommand({
  name: 'replay',
  summary: 'send results that a run could not deliver and spooled',
  usage,
  options: {
    dir: { type: 'string' },
    timeout: { type: 'string', default: String(DEFAULT_TIMEOUT_SECONDS) },
    'ignore-recorded-url': { type: 'boolean' },
    'allow-insecure-http': { type: 'boolean' },
    ...TLS_FLAGS,
  },
  run: async ({ values, output }) => {
    const timeoutSeconds = Number(values.timeout);
    if (!(timeoutSeconds > 0)) {
      throw new UsageError(`--timeout must be a number of seconds above 0, got "${values.timeout}"`);
    }
    const config = resolveCliConfig(
      { spoolDir: values.dir, allowInsecureHttp: values['allow-insecure-http'], ...tlsOptions(values) },
      output,
    );
    if (!config) return 1;
    const dir = values.dir ? path.resolve(values.dir) : config.spoolDir;
    const result = await replaySpool({
      dir,
      apiKey: config.apiKey,
      baseUrl: config.baseUrl,
      ignoreRecordedUrl: values['ignore-recorded-url'],
      runIdPath: config.runIdPath,
      tls: config.tls,
      timeoutMs: timeoutSeconds * 1000,
      userAgent: userAgent('cli'),
      log: (line) => output.error(line),
    });
    output.out(
      result.files === 0
        ? `testrun replay: nothing to send in ${dir}\n`
        : `testrun replay: ${result.delivered} results delivered from ${result.files} spool files; ${result.remaining} remain in ${dir}\n`,
    );
    if (result.errors.length === 0 && result.remaining === 0) return 0;
    // A set-aside file's own line says how to fix it: running again changes nothing for it.
    if (result.remaining > 0 || result.held > 0 || result.errors.length > result.setAside) {
      output.error('some results could not be sent; they stay in the spool. Run it again later.');
    }
    return 1;
  },
});
