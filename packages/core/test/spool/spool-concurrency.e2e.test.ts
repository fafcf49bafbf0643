import fs from 'node:fs';
import { runCli, runNodeScript, startTestServer, type TestServer, tempDir } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

let server: TestServer | undefined;

// A reporter that spools batch after batch while replays run in the same directory.
const reporterScript = `
import { RunReporter } from '@testrun/core';
const name = process.env.NAME;
const reporter = new RunReporter({
  options: { apiKey: process.env.KEY, baseUrl: process.env.URL, ciTags: false, spoolDir: process.env.SPOOL, batchSize: 5, flushInterval: 0, maxRetries: 0 },
  framework: { name: 'vitest', version: '4.0.0' },
  rootDir: process.cwd(),
  env: {},
  write: () => {},
});
reporter.startRun();
for (let chunk = 0; chunk < 40; chunk += 1) {
  reporter.addResults(Array.from({ length: 5 }, (_, i) => ({ testSuite: name, testCase: name + ' case ' + (chunk * 5 + i), status: 'passed', duration: 1 })));
  await new Promise((resolve) => setTimeout(resolve, 40));
}
const summary = await reporter.endRun();
console.log(JSON.stringify({ delivered: summary.delivered, spooled: summary.spooled, failed: summary.failed }));
`;

describe('reporters and replays sharing one spool directory', () => {
  it('store every result exactly once, whatever the interleaving', async () => {
    // Reporters' submits are refused (422: not split to find a result at fault, as a 400 is),
    // so each batch is spooled as it is made; replays (the CLI's User-Agent) are served, a
    // little slowly, so that reporters write while a replay holds what it read.
    server = await startTestServer({
      faults: (request) => {
        if (request.route !== 'submitResults') return undefined;
        return String(request.headers['user-agent']).includes('(cli;') ? { delayMs: 20 } : { status: 422 };
      },
    });
    const spoolDir = tempDir('testrun-shared-spool-');
    const env = { KEY: server.apiKey, URL: server.url, SPOOL: spoolDir };
    const cliEnv = { PATH: process.env.PATH, TESTRUN_API_KEY: server.apiKey, TESTRUN_BASE_URL: server.url };
    const replay = () => runCli(['replay', '--dir', spoolDir], { env: cliEnv });

    let reportersDone = false;
    const reporters = Promise.all(
      ['a', 'b', 'c'].map((name) =>
        runNodeScript<{ delivered: number; spooled: number; failed: number }>(reporterScript, {
          env: { ...env, NAME: name },
        }),
      ),
    ).finally(() => {
      reportersDone = true;
    });
    const replayLoop = async () => {
      let runs = 0;
      while (!reportersDone || runs === 0) {
        await replay();
        runs += 1;
      }
      return runs;
    };
    const [outcomes, ...replays] = await Promise.all([reporters, replayLoop(), replayLoop(), replayLoop()]);
    for (const { result } of outcomes) expect(result).toEqual({ delivered: 0, spooled: 200, failed: 0 });
    expect(replays.every((runs) => runs > 0)).toBe(true);

    const last = await replay();
    expect(last.stderr).toBe('');
    expect(fs.readdirSync(spoolDir)).toEqual([]);
    const stored = (await server.server.store.allResults()).map((result) => result.testCase);
    const expected = ['a', 'b', 'c'].flatMap((name) =>
      Array.from({ length: 200 }, (_, i) => `${name} case ${i}`),
    );
    expect(stored.sort()).toEqual(expected.sort());
  });
});
