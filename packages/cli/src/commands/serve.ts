import { randomBytes } from 'node:crypto';
import { createServer, defaultPageAccess } from '@testrun/server';
import { defineCommand, UsageError } from '../command.js';
import { nextSignal } from '../signals.js';

export const serve = defineCommand({
  name: 'serve',
  about: `
Runs a local Test Run Reporting Service until Ctrl-C (SIGINT) or SIGTERM.
Runs are listed at its address in a browser. Listening beyond loopback, or given a
read key, its pages ask for a key: the read key (TESTRUN_READ_KEY) or the API key.
`,
  flags: {
    host: { type: 'string', value: '<host>', default: '127.0.0.1', help: 'address to listen on' },
    port: { type: 'string', value: '<port>', default: '0', help: 'port to listen on; 0 picks a free one' },
    'api-key': {
      type: 'string',
      value: '<key>',
      help: 'the key clients must send (default: a random key, printed)',
    },
    'read-key': {
      type: 'string',
      value: '<key>',
      help: 'a key that opens the pages and reads the API but cannot write (default: TESTRUN_READ_KEY); never printed',
    },
    data: {
      type: 'string',
      value: '<file>',
      help: 'keep runs in this append-only file and read it back on start (default: memory only)',
    },
    'abandoned-after': {
      type: 'string',
      value: '<time>',
      default: '1h',
      help: 'a run never completed that received nothing for this long is shown as abandoned: 90s, 30m, 2h',
    },
  },
  run: async ({ values, output }) => {
    const apiKey = values['api-key'] ?? generateApiKey();
    if (apiKey.trim() === '') throw new UsageError('--api-key must not be empty');
    const readKey = readKeyOf(values['read-key']);
    output.redact(readKey);
    const readKeys = readKey === undefined ? [] : [readKey];
    const server = await createServer({
      host: values.host,
      port: parsePort(values.port),
      apiKeys: [apiKey],
      readKeys,
      dataFile: values.data,
      abandonedAfterMs: parseTime('--abandoned-after', values['abandoned-after']),
    });
    // The API key is printed on purpose: it is this server's own, made up for it. The
    // read key is handed to people by whoever chose it, never printed.
    const pages = pagesLine(defaultPageAccess(values.host, readKeys) === 'key', readKey !== undefined);
    process.stdout.write(banner(server.url, apiKey, values.data, (await server.store.runs()).length, pages));

    await nextSignal(['SIGINT', 'SIGTERM']);
    await server.close();
    output.out('testrun server stopped\n');
    return 0;
  },
});

/** --read-key, else TESTRUN_READ_KEY; an empty variable is unset, an empty flag a mistake. */
function readKeyOf(flag: string | undefined): string | undefined {
  if (flag !== undefined) {
    if (flag.trim() === '') throw new UsageError('--read-key must not be empty');
    return flag;
  }
  const fromEnv = process.env.TESTRUN_READ_KEY?.trim();
  return fromEnv === '' ? undefined : fromEnv;
}

/** What the banner says about who may see the pages; nothing when they are open, as on loopback. */
function pagesLine(needKey: boolean, haveReadKey: boolean): string | undefined {
  if (!needKey) return undefined;
  return haveReadKey
    ? 'Pages ask for a key: the read key or the API key.'
    : 'Pages ask for a key: the API key. Give people a read-only one with --read-key or TESTRUN_READ_KEY.';
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) {
    throw new UsageError(`--port must be a whole number from 0 to 65535, got "${text}"`);
  }
  return port;
}

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000 };

/** `90s`, `30m`, `2h` in milliseconds. */
function parseTime(flag: string, text: string): number {
  const match = /^(\d+)(s|m|h)$/.exec(text.trim());
  const ms = match ? Number(match[1]) * UNIT_MS[match[2]!]! : 0;
  if (!match || ms < 1 || !Number.isSafeInteger(ms)) {
    throw new UsageError(`${flag} must be a whole number with a unit, e.g. 90s, 30m or 2h, got "${text}"`);
  }
  return ms;
}

/** Random and recognisable: `trk_` and 24 hex characters. */
function generateApiKey(): string {
  return `trk_${randomBytes(12).toString('hex')}`;
}

function banner(
  url: string,
  apiKey: string,
  dataFile: string | undefined,
  runsReadBack: number,
  pages: string | undefined,
): string {
  const lines = [
    `testrun server listening on ${url}`,
    `API key: ${apiKey}`,
    ...(dataFile === undefined
      ? []
      : [`Data file: ${dataFile} (${runsReadBack === 1 ? '1 run' : `${runsReadBack} runs`} read back)`]),
    `Runs: ${url}/ in a browser. Stop with Ctrl-C.`,
    ...(pages === undefined ? [] : [pages]),
    `Try: export TESTRUN_BASE_URL=${url} TESTRUN_API_KEY=${apiKey}`,
  ];
  return `${lines.join('\n')}\n`;
}
