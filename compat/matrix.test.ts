import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  AWAIT_RUNS_TIMEOUT_MS,
  FRAMEWORKS,
  type Framework,
  frameworkBin,
  identities,
  PARITY_REPORTER_OPTIONS,
  REPORTER_OPTIONS_VAR,
  type RunOptions,
  type RunOutcome,
  reporterEnv,
  startTestServer,
  type TestServer,
} from '@testrun/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The version matrix: the parity fixture under every supported framework version, held to
// the same expected list as the parity test (PARITY_RESULTS; Playwright: its own form of
// the fixture and PLAYWRIGHT_PARITY_RESULTS). Vitest 4, Jest 30 and Playwright 1.65 are
// this repo's own. The others are installed in compat/<install>/; the fixture is copied
// there, so that the framework and the reporter resolve against that install's version.

interface Leg {
  label: string;
  framework: Framework['name'];
  /** The version that must have run, as the reporter's User-Agent names it. */
  version: RegExp;
  /** A workspace package under compat/ that installs this version; none: the repo's own. */
  install?: string;
  /** Whether the install brings its own Node (the `node` package), which then runs the framework. */
  ownNode?: boolean;
}

const MATRIX: Leg[] = [
  { label: 'Vitest 3.2', framework: 'vitest', version: /^3\.2\./, install: 'vitest-3' },
  { label: 'Vitest 4', framework: 'vitest', version: /^4\./ },
  // Vitest 5 needs Node 22 or later.
  { label: 'Vitest 5', framework: 'vitest', version: /^5\./, install: 'vitest-5', ownNode: true },
  { label: 'Jest 29', framework: 'jest', version: /^29\./, install: 'jest-29' },
  { label: 'Jest 30', framework: 'jest', version: /^30\./ },
  { label: 'Playwright 1.64', framework: 'playwright', version: /^1\.64\./, install: 'playwright-1.64' },
  { label: 'Playwright 1.65', framework: 'playwright', version: /^1\.65\./ },
];

const COMPAT_DIR = path.dirname(fileURLToPath(import.meta.url));

describe.each(MATRIX)('the parity fixture under $label', (leg) => {
  const framework = FRAMEWORKS.find(({ name }) => name === leg.framework)!;
  let server: TestServer;
  let outcome: RunOutcome;

  beforeAll(async () => {
    server = await startTestServer();
    const options: RunOptions = {
      cwd: framework.fixtures.parity,
      env: reporterEnv(server, { [REPORTER_OPTIONS_VAR]: PARITY_REPORTER_OPTIONS }),
    };
    if (leg.install) {
      const installDir = path.join(COMPAT_DIR, leg.install);
      options.cwd = copyFixtureInto(framework.fixtures.parity, installDir);
      options.bin = frameworkBin(framework.packageName, installDir, framework.binName);
      if (leg.ownNode) options.nodePath = frameworkBin('node', installDir);
    }
    outcome = await framework.run(options);
  }, AWAIT_RUNS_TIMEOUT_MS);

  afterAll(() => server?.close());

  it('ran that version of the framework', () => {
    const agents = new Set(server.server.requests.map((request) => request.userAgent));
    expect(agents.size, [...agents].join('\n')).toBe(1);
    const [, framework, version, node] =
      /\((\w+)\/([^;]+); node\/([^)]+)\)$/.exec([...agents][0] ?? '') ?? [];
    expect(framework).toBe(leg.framework);
    expect(version).toMatch(leg.version);
    if (leg.ownNode) expect(Number(node?.split('.')[0])).toBeGreaterThanOrEqual(22);
    else expect(node).toBe(process.versions.node);
  });

  it('stores exactly the parity results, in one run', () => {
    const runs = server.server.store.runs();
    expect(runs.map((run) => run.framework)).toEqual([leg.framework]);
    const stored = server.server.store.results(runs[0]!.id);
    expect(identities(stored), `${outcome.stdout}\n${outcome.stderr}`).toEqual(
      identities(framework.parityResults),
    );
  });

  it('leaves the exit code at 1, for the fixture fails on purpose', () => {
    expect(outcome.code).toBe(1);
  });
});

/** A fresh copy of a parity fixture in `installDir`/fixture (gitignored), where that install resolves. */
function copyFixtureInto(fixture: string, installDir: string): string {
  const target = path.join(installDir, 'fixture');
  fs.rmSync(target, { recursive: true, force: true });
  fs.cpSync(fixture, target, {
    recursive: true,
    // Vite's caches of the original, if any, belong to the repo's own Vitest.
    filter: (source) => path.basename(source) !== 'node_modules',
  });
  return target;
}
