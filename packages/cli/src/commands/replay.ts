import path from 'node:path';
import { countOf, DEFAULT_REPLAY_TIMEOUT_MS, formatCount, replaySpool, userAgent } from '@testrun/core';
import { resolveCliConfig, TLS_FLAGS } from '../cli-config.js';
import { defineCommand, UsageError } from '../command.js';

export const replay = defineCommand({
  name: 'replay',
  about: `
Sends the runs and results that reporters spooled when the service could not take
them, with the idempotency keys they were first sent with, so nothing is stored
twice. Delivered batches leave the spool; the rest stay for the next try. A
result the service refuses alone (400) while it takes the others leaves the spool
too, named in a line: sending it again would be refused again. Exits 1 when
something remains or was refused. Files a running reporter is still writing, or another
replay holds, are left alone; those of a reporter or replay that died are taken
over. A file whose lines are not what a reporter writes is set aside as
<file>.bad, named, and not sent.

Reads TESTRUN_API_KEY and TESTRUN_BASE_URL from the environment. The key is sent
only to TESTRUN_BASE_URL: a spool file recorded for another service is skipped
with a line saying so, unless --ignore-recorded-url is given.
`,
  flags: {
    dir: { type: 'string', value: '<dir>', option: 'spoolDir' },
    timeout: {
      type: 'string',
      value: '<seconds>',
      default: String(DEFAULT_REPLAY_TIMEOUT_MS / 1000),
      help: 'give up after this long; what is not sent stays in the spool',
    },
    'ignore-recorded-url': {
      type: 'boolean',
      help: 'send every spool file to TESTRUN_BASE_URL, whatever service it was recorded for',
    },
    'allow-insecure-http': { type: 'boolean', option: 'allowInsecureHttp' },
    ...TLS_FLAGS,
  },
  run: async ({ values, options, output }) => {
    const timeoutSeconds = Number(values.timeout);
    if (!(timeoutSeconds > 0)) {
      throw new UsageError(`--timeout must be a number of seconds above 0, got "${values.timeout}"`);
    }
    const config = resolveCliConfig(options, output);
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
        : `testrun replay: ${countOf(result.delivered, 'result')} delivered from ${countOf(result.files, 'spool file')}${result.attachments.sent > 0 ? `, ${countOf(result.attachments.sent, 'file')} uploaded` : ''}${result.runsCompleted > 0 ? `, ${countOf(result.runsCompleted, 'run')} completed` : ''}${result.refused.results > 0 ? `, ${formatCount(result.refused.results)} refused by the service (not sent again)` : ''}; ${countOf(result.remaining, 'remains', 'remain')} in ${dir}${result.attachments.remaining > 0 ? ` (and ${countOf(result.attachments.remaining, 'file')})` : ''}\n`,
    );
    if (result.errors.length === 0 && result.remaining === 0 && result.attachments.remaining === 0) return 0;
    // A set-aside file, one recorded for another service, a run's end or a result the service
    // refused has its own line saying what to do: running again changes nothing for it.
    const { files: elsewhere, results: leftElsewhere } = result.forAnotherService;
    const retryable =
      result.remaining > leftElsewhere ||
      result.attachments.remaining > 0 ||
      result.held > 0 ||
      result.errors.length > result.setAside + elsewhere + result.endsRefused + result.refused.lines;
    if (retryable) {
      output.error('some results could not be sent; they stay in the spool. Run it again later.');
    }
    return 1;
  },
});
