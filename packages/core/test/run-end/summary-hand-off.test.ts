import fs from 'node:fs';
import path from 'node:path';
import {
  closedPortUrl,
  createReporter,
  startTestServer,
  type TestServer,
  tempDir,
} from '@testrun/test-utils';
import { htmlElements, renderGfm } from '@testrun/test-utils/gfm';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/options/config.js';
import { gatherRun, SUMMARY_PARTS_VAR } from '../../src/run-end/summary-hand-off.js';
import type { SummaryPart } from '../../src/summary/parts.js';
import type { RawResult } from '../../src/types.js';

// The hand-off from a run's end to its CI summary: a reporter that ended its run writes it,
// one inside a command that hands its run on leaves a part, one given a run writes nothing;
// a process ending a run others reported into reads it from the service, or from the parts.

const RESULTS: RawResult[] = [
  { testSuite: 'a.test.ts', testCase: 'adds', status: 'passed', duration: 4 },
  { testSuite: 'a.test.ts', testCase: 'carries', status: 'passed', duration: 700, attempts: 2 },
  {
    testSuite: 'a.test.ts',
    testCase: 'fails',
    status: 'failed',
    duration: 30,
    failure: { errors: [new Error('expected 2 to be 3\nsecond line')] },
  },
  { testSuite: 'a.test.ts', testCase: 'later', status: 'skipped' },
];

/** The summary file as a reader sees it rendered: each block's text, and each link's target by its text. */
function shown(markdown: string): { blocks: string[]; links: Map<string, string> } {
  const elements = htmlElements(renderGfm(markdown));
  const blocks = elements
    .filter((element) => ['h1', 'h3', 'p', 'tr', 'sub'].includes(element.tag))
    .map((element) => element.text.replace(/\s+/g, ' ').trim());
  const links = new Map(
    elements
      .filter((element) => element.tag === 'a')
      .map((element) => [element.text, element.attributes.href!]),
  );
  return { blocks, links };
}

async function storedCounts(server: TestServer, runId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const result of await server.server.store.results(runId)) {
    counts[result.status] = (counts[result.status] ?? 0) + 1;
  }
  return counts;
}

describe('a reporter that created its run', () => {
  it('appends the summary of what it sent, its counts those the service stored', async () => {
    const server = await startTestServer();
    const file = path.join(tempDir('testrun-summary-'), 'step-summary.md');
    fs.writeFileSync(file, '# Earlier step\n');
    const { reporter } = createReporter(server.url, server.apiKey, {}, { GITHUB_STEP_SUMMARY: file });
    reporter.addResults(RESULTS);
    const delivery = await reporter.endRun();
    const written = fs.readFileSync(file, 'utf8');
    const { blocks, links } = shown(written);
    const runId = delivery!.runId!;

    expect(blocks.slice(0, 3)).toEqual([
      'Earlier step',
      '❌ core-tests · vitest: failed',
      expect.stringMatching(
        /^1 failed · 2 passed \(1 flaky\) · 1 skipped · 4 tests · [\d.]+ m?s · the run's page$/,
      ),
    ]);
    expect(await storedCounts(server, runId)).toEqual({ passed: 2, failed: 1, skipped: 1 });
    expect(blocks).toContain('fails a.test.ts expected 2 to be 3');
    expect(links.get('fails')).toMatch(new RegExp(`^${server.url}/runs/${runId}#test-[0-9a-f]{12}$`));
    expect(blocks).toContain('carries a.test.ts 2');
    expect(blocks.at(-1)).toBe(`testrun · Run ${runId} · these counts are the whole run`);
    expect(written).not.toContain(server.apiKey);
  });

  it('writes where the summary option says, and nothing with summary false', async () => {
    const server = await startTestServer();
    const dir = tempDir('testrun-summary-');
    const own = createReporter(server.url, server.apiKey, { summary: path.join(dir, 'own.md') });
    own.reporter.addResults(RESULTS.slice(0, 1));
    await own.reporter.endRun();
    expect(shown(fs.readFileSync(path.join(dir, 'own.md'), 'utf8')).blocks[0]).toBe(
      '✅ core-tests · vitest: completed',
    );

    const github = path.join(dir, 'github.md');
    const off = createReporter(
      server.url,
      server.apiKey,
      { summary: false },
      { GITHUB_STEP_SUMMARY: github },
    );
    off.reporter.addResults(RESULTS.slice(0, 1));
    await off.reporter.endRun();
    expect(fs.existsSync(github)).toBe(false);
  });

  it('says in one line when the summary cannot be written, and the run is delivered as ever', async () => {
    const server = await startTestServer();
    const { reporter, lines } = createReporter(server.url, server.apiKey, {
      summary: tempDir('testrun-summary-'),
    });
    reporter.addResults(RESULTS);
    const delivery = await reporter.endRun();
    expect(delivery!.delivered).toBe(4);
    expect(lines).toContainEqual(
      expect.stringMatching(/^testrun: the CI summary could not be written to .*: EISDIR/),
    );
  });

  it('with the service down, says the run was not created and where its results wait', async () => {
    const url = await closedPortUrl();
    const file = path.join(tempDir('testrun-summary-'), 'summary.md');
    const { reporter } = createReporter(url, 'k', { summary: file, maxRetries: 0 });
    reporter.addResults(RESULTS);
    await reporter.endRun();
    const { blocks } = shown(fs.readFileSync(file, 'utf8'));
    expect(blocks.slice(0, 3)).toEqual([
      '⚠️ core-tests · vitest: not created',
      expect.stringMatching(/^1 failed · 2 passed \(1 flaky\) · 1 skipped · 4 tests · [\d.]+ m?s$/),
      '4 results could not be delivered yet: they wait in the spool, and npx @testrun/cli replay sends them.',
    ]);
    expect(blocks).toContain('fails a.test.ts expected 2 to be 3');
  });
});

describe('a reporter inside a command that hands its run on', () => {
  it('leaves a part for the process that ends the run, and writes no summary itself', async () => {
    const server = await startTestServer();
    const parts = tempDir('testrun-summary-');
    const file = path.join(tempDir('testrun-summary-'), 'summary.md');
    const { reporter } = createReporter(
      server.url,
      server.apiKey,
      {},
      { [SUMMARY_PARTS_VAR]: parts, GITHUB_STEP_SUMMARY: file },
    );
    reporter.addResults(RESULTS);
    const delivery = await reporter.endRun();
    expect(fs.existsSync(file)).toBe(false);
    const [name, ...others] = fs.readdirSync(parts);
    expect(others).toEqual([]);
    const part = JSON.parse(fs.readFileSync(path.join(parts, name!), 'utf8')) as SummaryPart;
    expect(part).toMatchObject({ runId: delivery!.runId, delivered: 4, spooled: 0 });
    expect(part.tally).toMatchObject({ total: 4, failedCount: 1, flakyCount: 1 });
    expect(part.tally.failed[0]).toMatchObject({ testCase: 'fails', message: 'expected 2 to be 3' });
  });

  it('given a run, writes nothing: the process that created it ends it', async () => {
    const server = await startTestServer();
    const file = path.join(tempDir('testrun-summary-'), 'summary.md');
    const { reporter } = createReporter(server.url, server.apiKey, { runId: 'given', summary: file });
    reporter.addResults(RESULTS);
    await reporter.endRun();
    expect(fs.existsSync(file)).toBe(false);
  });
});

describe('gathering a run that others reported into', () => {
  const configFor = (server: { url: string; apiKey: string }) => {
    const resolution = resolveConfig({
      options: { apiKey: server.apiKey, baseUrl: server.url, summary: false },
      env: {},
      rootDir: process.cwd(),
    });
    if (resolution.state !== 'enabled') throw new Error(resolution.state);
    return resolution.config;
  };

  async function reportInto(server: TestServer, parts: string) {
    const first = createReporter(
      server.url,
      server.apiKey,
      { completeRun: false },
      { [SUMMARY_PARTS_VAR]: parts },
    );
    first.reporter.addResults(RESULTS);
    const { runId } = (await first.reporter.endRun())!;
    const second = createReporter(
      server.url,
      server.apiKey,
      { runId: runId! },
      { [SUMMARY_PARTS_VAR]: parts },
    );
    second.reporter.addResults([
      { testSuite: 'b.test.ts', testCase: 'also fails', status: 'failed', duration: 1 },
    ]);
    await second.reporter.endRun();
    return runId!;
  }

  it('reads the whole run from a service that offers reads, paging through its results', async () => {
    const server = await startTestServer();
    const runId = await reportInto(server, tempDir('testrun-summary-'));
    const gathered = await gatherRun({
      config: configFor(server),
      runId,
      extensions: ['read-runs'],
      userAgent: 'test',
    });
    expect(gathered.covers).toEqual({ whole: true });
    expect(gathered.tally).toMatchObject({
      total: 5,
      counts: await storedCounts(server, runId),
      failedCount: 2,
      flakyCount: 1,
    });
    expect(gathered.pageUrl).toBe(`${server.url}/runs/${runId}`);
    expect(gathered.state).toBe('running');
  });

  it("from a service that offers none, adds up the reporters' parts and says so", async () => {
    const server = await startTestServer({ readRuns: false });
    const parts = tempDir('testrun-summary-');
    const runId = await reportInto(server, parts);
    const gathered = await gatherRun({
      config: configFor(server),
      runId,
      extensions: ['failure-details', 'complete-run'],
      partsDir: parts,
      userAgent: 'test',
    });
    expect(gathered.covers).toEqual({ whole: false, why: 'the service offers no reads of a run' });
    expect(gathered.tally).toMatchObject({ total: 5, failedCount: 2, flakyCount: 1 });
    // No read of the run's results (a reporter read its quarantine list, since a test failed).
    expect(
      server.server.requests.filter(
        (request) => request.route === 'read' && !request.path.endsWith('/quarantine'),
      ),
    ).toEqual([]);
  });

  it('asks a service it knows nothing of (a bare id), and says what failed when the read does', async () => {
    const server = await startTestServer();
    const gathered = await gatherRun({
      config: configFor(server),
      runId: 'no-such-run',
      extensions: undefined,
      userAgent: 'test',
    });
    expect(gathered.covers).toMatchObject({
      whole: false,
      why: expect.stringMatching(/^reading the run from the service failed \(GET .* answered 404/),
    });
  });
});
