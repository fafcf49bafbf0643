import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  frameworkBin,
  identities,
  NEWMAN_SHOP_RESULTS,
  newmanFixtures,
  reporterEnv,
  runNewman,
  startCollectionServer,
  startTestServer,
} from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

// The shop collection, with its data file, under every supported Newman major, held to the
// results compat/newman-reporter.test.ts holds Newman 6 to. Newman 6 is this repo's own; 5 is installed in
// compat/newman-5/, which loads the reporter with the same require() of
// @testrun/newman-reporter-testrun for `-r @testrun/testrun`.

const COMPAT_DIR = path.dirname(fileURLToPath(import.meta.url));

const LEGS = [
  { label: 'Newman 5', version: /^5\./, install: 'newman-5' },
  { label: 'Newman 6', version: /^6\./, install: undefined },
];

describe.each(LEGS)('the shop collection under $label', ({ version, install }) => {
  it('stores a result per request and iteration in one run, with its exit code', async () => {
    const server = await startTestServer();
    const api = await startCollectionServer();
    const bin = install ? frameworkBin('newman', path.join(COMPAT_DIR, install)) : undefined;
    const outcome = await runNewman({
      collection: newmanFixtures.shop,
      server: api,
      args: ['-d', newmanFixtures.users],
      env: reporterEnv(server),
      ...(bin ? { bin } : {}),
    });
    const output = outcome.stdout + outcome.stderr;
    const runs = await server.server.store.runs();
    expect(runs, output).toHaveLength(1);
    expect(identities(await server.server.store.results(runs[0]!.id)), output).toEqual(
      identities(NEWMAN_SHOP_RESULTS),
    );
    const agents = new Set(server.server.requests.map((request) => request.userAgent));
    expect([...agents].map((agent) => /\(newman\/([^;]+);/.exec(agent ?? '')?.[1])).toEqual([
      expect.stringMatching(version),
    ]);
    expect(outcome.code).toBe(1);
  });
});
