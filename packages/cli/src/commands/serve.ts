import { randomBytes } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { sizeInBytes } from '@testrun/core';
import {
  createServer,
  defaultPageAccess,
  isProxyAddress,
  type ServerOptions,
  type TestrunServer,
} from '@testrun/server';
import { defineCommand, UsageError } from '../command.js';
import { nextSignal } from '../signals.js';

/** The default data folder, relative to where the server is started. */
const DEFAULT_DATA = '.testrun/server';

export const serve = defineCommand({
  name: 'serve',
  about: `
Runs a local Test Run Reporting Service until Ctrl-C (SIGINT) or SIGTERM.
Runs are listed at its address in a browser. Listening beyond loopback, or given a
read key, its pages ask for a key: the read key (TESTRUN_READ_KEY) or the API key.
Everything it accepts is kept in an embedded database in the --data folder (attached
files beside it, in attachments/), answered only once written to disk, and read again on
the next start.
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
      value: '<dir>',
      default: DEFAULT_DATA,
      help: 'keep runs in an embedded database in this folder; an older testrun data file (.ndjson) given here is imported once into <file>.d',
    },
    database: {
      type: 'string',
      value: '<url>',
      help: 'keep runs on a PostgreSQL server instead, which several servers may share: postgres://user:password@host:5432/db (default: TESTRUN_DATABASE_URL); the password is never printed',
    },
    memory: {
      type: 'boolean',
      help: 'keep nothing: an in-memory database, gone when the server stops (demos, tests)',
    },
    'keep-days': {
      type: 'string',
      value: '<days>',
      help: 'remove runs created more than this many days ago, in the background (default: keep all)',
    },
    'abandoned-after': {
      type: 'string',
      value: '<time>',
      default: '1h',
      help: 'a run never completed that received nothing for this long is shown as abandoned: 90s, 30m, 2h',
    },
    'trust-proxy': {
      type: 'string',
      value: '<a,b>',
      help: 'reverse proxies (addresses or CIDR ranges) whose X-Forwarded-For names the client, so wrong keys are counted per person',
    },
    'no-failure-details': {
      type: 'boolean',
      help: "accept only the spec's four fields: do not announce the failure-details extension, refuse `details`",
    },
    'no-complete-run': {
      type: 'boolean',
      help: 'do not announce the complete-run extension: reporters then leave their runs running (PATCH still answers)',
    },
    'no-read-runs': {
      type: 'boolean',
      help: 'do not announce the read-runs extension: CI summaries then count what was sent from their job (reads still answer)',
    },
    'no-shard-plans': {
      type: 'boolean',
      help: 'make no shard plans (POST /api/v1/plans answers 404), as a spec-only service: testrun plan then splits by size',
    },
    'no-attachments': {
      type: 'boolean',
      help: 'do not announce the attachments extension: reporters then send no files, and results naming files are refused',
    },
    'max-attachment-size': {
      type: 'string',
      value: '<size>',
      default: '100MB',
      help: 'a larger attached file is refused (413): 500KB, 25MB, 1GB',
    },
    'max-run-attachments': {
      type: 'string',
      value: '<size>',
      default: '1GB',
      help: "a file that would take a run's files past this is refused (413)",
    },
    'no-quarantine': {
      type: 'boolean',
      help: 'do not announce the quarantine extension: reporters then quarantine nothing, and results may not say they were (the quarantine pages and API still answer)',
    },
  },
  run: async ({ values, output }) => {
    const apiKey = values['api-key'] ?? generateApiKey();
    if (apiKey.trim() === '') throw new UsageError('--api-key must not be empty');
    const readKey = readKeyOf(values['read-key']);
    output.redact(readKey);
    const readKeys = readKey === undefined ? [] : [readKey];
    const database = databaseOf(values.database);
    for (const secret of passwordOf(database)) output.redact(secret);
    if (database !== undefined && values.memory) {
      throw new UsageError(
        '--memory keeps nothing and --database keeps runs on PostgreSQL: give one of them',
      );
    }
    const keepDays = values['keep-days'] === undefined ? undefined : parseDays(values['keep-days']);
    const server = await createServer({
      host: values.host,
      port: parsePort(values.port),
      apiKeys: [apiKey],
      readKeys,
      ...(database !== undefined ? { database } : values.memory ? {} : await storage(values.data)),
      ...(keepDays === undefined ? {} : { keepDays }),
      abandonedAfterMs: parseTime('--abandoned-after', values['abandoned-after']),
      failureDetails: !values['no-failure-details'],
      completeRun: !values['no-complete-run'],
      readRuns: !values['no-read-runs'],
      shardPlans: !values['no-shard-plans'],
      attachments: !values['no-attachments'],
      maxAttachmentBytes: parseSize('--max-attachment-size', values['max-attachment-size']),
      maxRunAttachmentBytes: parseSize('--max-run-attachments', values['max-run-attachments']),
      quarantine: !values['no-quarantine'],
      ...(values['trust-proxy'] === undefined ? {} : { trustProxy: proxiesOf(values['trust-proxy']) }),
    });
    // The API key is printed on purpose: it is this server's own, made up for it. The
    // read key is handed to people by whoever chose it, never printed.
    const pages = pagesLine(defaultPageAccess(values.host, readKeys) === 'key', readKey !== undefined);
    const data = await dataLine(server, keepDays);
    // Listening for the signals before the banner says the server is up: whoever reads the
    // banner may stop it at once.
    const stop = nextSignal(['SIGINT', 'SIGTERM']);
    process.stdout.write(banner(server, apiKey, data, pages));

    await stop;
    await server.close();
    output.out('testrun server stopped\n');
    return 0;
  },
});

/** `--trust-proxy`: addresses or CIDR ranges, comma-separated. */
function proxiesOf(text: string): string[] {
  const proxies = text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  const wrong = proxies.find((proxy) => !isProxyAddress(proxy));
  if (proxies.length === 0 || wrong !== undefined) {
    throw new UsageError(
      `--trust-proxy must list IP addresses or CIDR ranges, e.g. 10.0.0.5,10.1.0.0/16, got "${wrong ?? text}"`,
    );
  }
  return proxies;
}

/**
 * `--data`: a folder for the database; an existing file is a data file an older testrun
 * appended to, imported once into the folder beside it (`<file>.d`), so the command line
 * that served it before keeps working, and keeps its runs.
 */
async function storage(data: string): Promise<ServerOptions> {
  if (data.trim() === '') throw new UsageError('--data must name a folder');
  const found = await stat(data).catch(() => undefined);
  return found?.isFile() ? { dataFile: data } : { data };
}

/**
 * --database, else TESTRUN_DATABASE_URL (a variable keeps the password out of the process
 * list); an empty variable is unset, an empty flag a mistake.
 */
function databaseOf(flag: string | undefined): string | undefined {
  const url = flag ?? (process.env.TESTRUN_DATABASE_URL?.trim() || undefined);
  if (url === undefined) return undefined;
  if (!/^postgres(ql)?:\/\//i.test(url.trim())) {
    // Nothing of it is echoed: a mistyped URL may still hold a password.
    throw new UsageError('--database must be a PostgreSQL URL: postgres://user:password@host:5432/database');
  }
  return url.trim();
}

/** The URL's password, as written and decoded, for the output to redact. */
function passwordOf(url: string | undefined): string[] {
  let password = '';
  try {
    password = new URL(url ?? '').password;
  } catch {
    // Not a URL: the server refuses it without printing it.
  }
  if (password === '') return [];
  try {
    return [password, decodeURIComponent(password)];
  } catch {
    return [password];
  }
}

function parseDays(text: string): number {
  const days = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text.trim()) || !(days > 0)) {
    throw new UsageError(`--keep-days must be a number of days above 0, e.g. 30, got "${text}"`);
  }
  return days;
}

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

/** `25MB`, `1GB`, `500KB`, or bytes. */
function parseSize(flag: string, text: string): number {
  const bytes = sizeInBytes(text);
  if (bytes === undefined || bytes < 1) {
    throw new UsageError(`${flag} must be a size such as 500KB, 25MB or 1GB, got "${text}"`);
  }
  return bytes;
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

/** Where the runs are kept, how many there are, and what was imported or will be removed. */
async function dataLine(server: TestrunServer, keepDays: number | undefined): Promise<string> {
  if (server.dataLocation === 'memory') return 'Data: in memory only (--memory): gone when the server stops.';
  const count = await server.store.runCount();
  const parts = [`Data: ${server.dataLocation} (${count === 1 ? '1 run' : `${count} runs`})`];
  const { imported } = server;
  if (imported?.imported) {
    parts.push(`; imported ${imported.runs} runs and ${imported.results} results from the older data file`);
  }
  if (keepDays !== undefined) parts.push(`; runs older than ${keepDays} days are removed, with their files`);
  return `${parts.join('')}.`;
}

function banner(server: TestrunServer, apiKey: string, data: string, pages: string | undefined): string {
  const { url } = server;
  const lines = [
    `testrun server listening on ${url}`,
    `API key: ${apiKey}`,
    data,
    `Runs: ${url}/ in a browser. Stop with Ctrl-C.`,
    ...(pages === undefined ? [] : [pages]),
    `Try: export TESTRUN_BASE_URL=${url} TESTRUN_API_KEY=${apiKey}`,
  ];
  return `${lines.join('\n')}\n`;
}
