import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type ExpectedResult,
  identities,
  JASMINE_MAPPING_RESULTS,
  JASMINE_PARALLEL_ARGS,
  JASMINE_PARALLEL_MAPPING_RESULTS,
  jasmineBin,
  jasmineFixtures,
  reporterEnv,
  runJasmine,
  startTestServer,
} from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

// Jasmine's supported majors: the mapping fixture, serial and --parallel, under each, held to
// the same written-down results as compat/jasmine-reporter.test.ts. Jasmine 5 is this repo's own; the
// others are installed in compat/<install>/, where a copy of the fixture resolves them.

interface JasmineLeg {
  label: string;
  /** The jasmine-core version that must have run, as the reporter's User-Agent names it. */
  version: RegExp;
  install?: string;
}

const LEGS: JasmineLeg[] = [
  { label: 'Jasmine 5', version: /^5\./ },
  { label: 'Jasmine 6', version: /^6\./, install: 'jasmine-6' },
  { label: 'Jasmine 7', version: /^7\./, install: 'jasmine-7' },
];

const MODES: { mode: string; args: readonly string[]; expected: readonly ExpectedResult[] }[] = [
  { mode: 'serial', args: [], expected: JASMINE_MAPPING_RESULTS },
  { mode: '--parallel', args: JASMINE_PARALLEL_ARGS, expected: JASMINE_PARALLEL_MAPPING_RESULTS },
];

const compatDir = path.dirname(fileURLToPath(import.meta.url));

/** The fixture where the leg's install resolves: a fresh copy in compat/<install>/fixture (gitignored). */
function fixtureFor(leg: JasmineLeg): string {
  if (!leg.install) return jasmineFixtures.mapping;
  const target = path.join(compatDir, leg.install, 'fixture', 'mapping');
  fs.rmSync(target, { recursive: true, force: true });
  fs.cpSync(jasmineFixtures.mapping, target, { recursive: true });
  return target;
}

describe.each(LEGS)('$label', (leg) => {
  const cwd = fixtureFor(leg);
  const bin = leg.install ? jasmineBin(path.join(compatDir, leg.install)) : jasmineBin();

  it.each(MODES)(
    'stores the mapping results of a $mode run in one run, with its exit code',
    async ({ args, expected }) => {
      const server = await startTestServer();
      const outcome = await runJasmine({ cwd, bin, args, env: reporterEnv(server) });
      const output = outcome.stdout + outcome.stderr;
      const runs = await server.server.store.runs();
      expect(runs, output).toHaveLength(1);
      expect(identities(await server.server.store.results(runs[0]!.id)), output).toEqual(
        identities(expected),
      );
      const agents = new Set(server.server.requests.map((request) => request.userAgent));
      expect([...agents].map((agent) => /\(jasmine\/([^;]+);/.exec(agent ?? '')?.[1])).toEqual([
        expect.stringMatching(leg.version),
      ]);
      expect(outcome.code).toBe(3);
    },
  );
});
