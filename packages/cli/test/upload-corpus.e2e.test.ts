import fs from 'node:fs';
import path from 'node:path';
import {
  AWAIT_RUNS_TIMEOUT_MS,
  CLI_BIN,
  cleanEnv,
  fixtures,
  type RunOutcome,
  runProcess,
  startTestServer,
  type TestServer,
  tempDir,
} from '@testrun/test-utils';
import { SaxesParser } from 'saxes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Forty reports, one per writer family, in the shapes those writers write (docs/junit.md),
// in fixtures/junit/corpus; beside each, `<name>.json`: the writer, the shape, and the
// results it must store, written by hand from the rules. The real CLI uploads them into
// one real server from a checkout folder named `shop`, as a CI step uploads a glob: the
// reports of one framework in one upload (a run), so that the run's framework is checked
// too, in eight processes rather than forty. No two reports of one upload name the same
// suite, so each report's results are told apart by their testSuite. Then two properties
// hold over every report, checked against an independent reading of its XML.

const CORPUS = path.join(fixtures.junit, 'corpus');

interface StoredShape {
  testSuite: string;
  testCase: string;
  status: string;
  duration: number;
}

interface CorpusCase {
  writer: string;
  shape: string;
  /** The run's framework: what the report says wrote it, else junit. */
  framework: string;
  /** Which upload it goes in, when not the one of its framework's reports. */
  upload?: string;
  /** The lines `testrun upload:` prints about the report, all of them. */
  lines: string[];
  results: StoredShape[];
}

const names = fs
  .readdirSync(CORPUS)
  .filter((file) => file.endsWith('.xml'))
  .map((file) => file.slice(0, -'.xml'.length))
  .sort();

const expected = new Map(
  names.map((name) => [
    name,
    JSON.parse(fs.readFileSync(path.join(CORPUS, `${name}.json`), 'utf8')) as CorpusCase,
  ]),
);

/** The reports uploaded together, by the upload's name (also its run's project). */
const uploadGroups = new Map<string, string[]>();
for (const name of names) {
  const { upload, framework } = expected.get(name)!;
  const group = upload ?? framework;
  uploadGroups.set(group, [...(uploadGroups.get(group) ?? []), name]);
}

/** Sorted, so that the order batches arrive in does not matter. */
function sorted(results: readonly StoredShape[]): StoredShape[] {
  return results
    .map(({ testSuite, testCase, status, duration }) => ({ testSuite, testCase, status, duration }))
    .sort((a, b) => `${a.testSuite}\n${a.testCase}`.localeCompare(`${b.testSuite}\n${b.testCase}`, 'en'));
}

/** What an upload prints about one report: its `testrun upload:` lines naming the report, without the prefix. */
function linesAbout(name: string, stderr: string): string[] {
  const prefix = 'testrun upload: ';
  return stderr
    .split('\n')
    .filter((line) => line.startsWith(prefix))
    .map((line) => line.slice(prefix.length))
    .filter((line) => line.startsWith(`reports/${name}.xml:`));
}

/**
 * The report read without the CLI's code: whether a <failure> or <error> stands in a
 * <testcase> or <testsuite>, and its testcases' distinct (file, classname, name).
 */
function readIndependently(xml: string): { holdsFailure: boolean; triples: number } {
  const parser = new SaxesParser();
  const open: { name: string; file?: string }[] = [];
  const triples = new Set<string>();
  let holdsFailure = false;
  parser.on('opentag', (tag) => {
    const parent = open.at(-1);
    const file = tag.attributes.file ?? [...open].reverse().find((element) => element.file)?.file;
    if (tag.name === 'testcase') {
      triples.add(JSON.stringify([file, tag.attributes.classname, tag.attributes.name]));
    }
    if ((tag.name === 'failure' || tag.name === 'error') && /^test(case|suite)$/.test(parent?.name ?? '')) {
      holdsFailure = true;
    }
    open.push({ name: tag.name, file: tag.name === 'testsuite' ? file : undefined });
  });
  parser.on('closetag', () => open.pop());
  // XML 1.0 forbids these; dart-junitreport writes them raw, and as references (`&#8;`).
  const controls = (code: number) => code < 0x20 && code !== 0x9 && code !== 0xa && code !== 0xd;
  const allowed = xml
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, ' ')
    .replace(/&#(x[0-9a-f]+|\d+);/gi, (reference, code: string) =>
      controls(
        code.startsWith('x') || code.startsWith('X') ? Number.parseInt(code.slice(1), 16) : Number(code),
      )
        ? ' '
        : reference,
    );
  parser.write(allowed).close();
  return { holdsFailure, triples: triples.size };
}

describe('the JUnit corpus, uploaded', () => {
  let server: TestServer;
  const checkout = path.join(tempDir('testrun-corpus-'), 'shop');
  const uploads = new Map<string, RunOutcome>();

  beforeAll(async () => {
    server = await startTestServer();
    fs.mkdirSync(path.join(checkout, '.git'), { recursive: true });
    fs.mkdirSync(path.join(checkout, 'reports'));
    for (const name of names) {
      fs.copyFileSync(path.join(CORPUS, `${name}.xml`), path.join(checkout, 'reports', `${name}.xml`));
    }
    const env = cleanEnv({
      TESTRUN_API_KEY: server.apiKey,
      TESTRUN_BASE_URL: server.url,
      TESTRUN_SPOOL_DIR: path.join(checkout, '..', 'spool'),
    });
    // Two at a time: the machine's cores, and the server is shared.
    const queue = [...uploadGroups];
    const worker = async () => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
        const [group, reports] = next;
        const args = [CLI_BIN, 'upload', ...reports.map((name) => `reports/${name}.xml`), '--project', group];
        uploads.set(group, await runProcess(process.execPath, args, { env, cwd: checkout }));
      }
    };
    await Promise.all([worker(), worker()]);
  }, AWAIT_RUNS_TIMEOUT_MS);

  afterAll(async () => {
    await server?.close();
    fs.rmSync(path.dirname(checkout), { recursive: true, force: true });
  });

  async function runOf(group: string) {
    const runs = (await server.server.store.runs()).filter((run) => run.project === group);
    expect(runs, `one run for the upload "${group}"`).toHaveLength(1);
    return { run: runs[0]!, results: await server.server.store.results(runs[0]!.id) };
  }

  /** The upload a report went in, and the results of its run that belong to the report. */
  async function storedFor(name: string) {
    const { upload, framework, results: expectedResults } = expected.get(name)!;
    const group = upload ?? framework;
    const suites = new Set(expectedResults.map((result) => result.testSuite));
    const { run, results } = await runOf(group);
    return {
      upload: uploads.get(group)!,
      run,
      results: results.filter((result) => suites.has(result.testSuite)),
    };
  }

  it('holds between 30 and 50 reports, and no two reports of one upload name the same suite', () => {
    expect(names.length).toBeGreaterThanOrEqual(30);
    expect(names.length).toBeLessThanOrEqual(50);
    for (const [group, reports] of uploadGroups) {
      const suites = reports.flatMap((name) => [
        ...new Set(expected.get(name)!.results.map((result) => result.testSuite)),
      ]);
      expect(suites.length, group).toBe(new Set(suites).size);
    }
  });

  it.each([...uploadGroups.keys()])(
    'the upload of %s reports exits 0 and stores their results, no more',
    async (group) => {
      const upload = uploads.get(group)!;
      expect(upload.code, upload.stderr).toBe(0);
      const reports = uploadGroups.get(group)!;
      expect(sorted((await runOf(group)).results)).toEqual(
        sorted(reports.flatMap((name) => expected.get(name)!.results)),
      );
    },
  );

  it.each(names)('%s: stores what its JSON says, and says what it should', async (name) => {
    const { framework, lines, results: expectedResults } = expected.get(name)!;
    const { upload, run, results } = await storedFor(name);
    expect(run.framework).toBe(framework);
    expect(sorted(results)).toEqual(sorted(expectedResults));
    expect(linesAbout(name, upload.stderr)).toEqual(lines);
  });

  it('stores a failed result for every report that holds a <failure> or <error>', async () => {
    const withoutFailure: string[] = [];
    for (const name of names) {
      const { holdsFailure } = readIndependently(fs.readFileSync(path.join(CORPUS, `${name}.xml`), 'utf8'));
      const { results } = await storedFor(name);
      if (holdsFailure && !results.some((result) => result.status === 'failed')) withoutFailure.push(name);
    }
    expect(withoutFailure).toEqual([]);
  });

  it('never stores fewer results than a report has distinct (file, classname, name)', async () => {
    const short: { name: string; triples: number; stored: number }[] = [];
    for (const name of names) {
      const { triples } = readIndependently(fs.readFileSync(path.join(CORPUS, `${name}.xml`), 'utf8'));
      const stored = (await storedFor(name)).results.length;
      if (stored < triples) short.push({ name, triples, stored });
    }
    expect(short).toEqual([]);
  });
});
