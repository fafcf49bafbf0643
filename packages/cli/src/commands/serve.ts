import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { createServer } from '@testrun/server';
import { nextSignal } from '../signals.js';
import { asUsageError, UsageError } from '../usage-error.js';

export const summary = 'run a local Test Run Reporting Service, for trying the reporters';

export const usage = `Usage: testrun serve [options]

Runs a local Test Run Reporting Service until Ctrl-C (SIGINT) or SIGTERM.
Runs are listed at its address in a browser.

Options:
  --host <host>     address to listen on (default: 127.0.0.1)
  --port <port>     port to listen on; 0 picks a free one (default: 0)
  --api-key <key>   the key clients must send (default: a random key, printed)
  --data <file>     keep runs in this append-only file and read it back on start
                    (default: memory only)
  -h, --help        show this help
`;

export async function run(argv: string[]): Promise<number> {
  const { values } = asUsageError(() =>
    parseArgs({
      args: argv,
      options: {
        host: { type: 'string', default: '127.0.0.1' },
        port: { type: 'string', default: '0' },
        'api-key': { type: 'string' },
        data: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }),
  );
  if (values.help) {
    process.stdout.write(usage);
    return 0;
  }

  const apiKey = values['api-key'] ?? generateApiKey();
  if (apiKey.trim() === '') throw new UsageError('--api-key must not be empty');
  const server = await createServer({
    host: values.host,
    port: parsePort(values.port),
    apiKeys: [apiKey],
    dataFile: values.data,
  });
  process.stdout.write(banner(server.url, apiKey, values.data, server.store.runs().length));

  await nextSignal(['SIGINT', 'SIGTERM']);
  await server.close();
  process.stdout.write('testrun server stopped\n');
  return 0;
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) {
    throw new UsageError(`--port must be a whole number from 0 to 65535, got "${text}"`);
  }
  return port;
}

/** Random and recognisable: `trk_` and 24 hex characters. */
function generateApiKey(): string {
  return `trk_${randomBytes(12).toString('hex')}`;
}

function banner(url: string, apiKey: string, dataFile: string | undefined, runsReadBack: number): string {
  const lines = [
    `testrun server listening on ${url}`,
    `API key: ${apiKey}`,
    ...(dataFile === undefined
      ? []
      : [`Data file: ${dataFile} (${runsReadBack === 1 ? '1 run' : `${runsReadBack} runs`} read back)`]),
    `Runs: ${url}/ in a browser. Stop with Ctrl-C.`,
    `Try: export TESTRUN_BASE_URL=${url} TESTRUN_API_KEY=${apiKey}`,
  ];
  return `${lines.join('\n')}\n`;
}
