import fs from 'node:fs';
import path from 'node:path';
import { runProcess as run, startTestServer, writeFiles } from '@testrun/test-utils';
import { readSummary } from '@testrun/test-utils/gfm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bin,
  envFor,
  INSTALL_TIMEOUT_MS,
  type InstalledConsumer,
  installedConsumer,
  removeScratch,
  summaryFile,
} from './consumer.js';
import { QUARANTINE_VARIATIONS, quarantine, type RunContext, writeDocumentedRun } from './documented-runs.js';

// Quarantine from the packed packages: the documented runs whose build quarantine passes are
// documented-runs.test.ts's; here, the same fixtures where it must not.

let consumer: InstalledConsumer;
/** No variation runs Newman: its collections are never written. */
const context: RunContext = { collectionUrl: 'http://127.0.0.1:9' };

beforeAll(async () => {
  consumer = await installedConsumer();
}, INSTALL_TIMEOUT_MS);

afterAll(removeScratch);

describe.concurrent('quarantine from the packed packages, under testrun run', () => {
  // The same fixtures where quarantine must not pass the build: each exits as its runner does
  // without testrun, and the line says why (the decision's every variation is a unit test,
  // packages/core/test/quarantine/command-verdict.test.ts).
  it.each(QUARANTINE_VARIATIONS)(
    '$documentedRun.framework under testrun run, $what: exits as without testrun, saying why',
    async ({ documentedRun, extraFiles, prepare, why, ended }) => {
      const server = await startTestServer();
      await quarantine(server, documentedRun);
      const extra = (await prepare?.(server)) ?? {};
      const env = envFor(server, { GITHUB_STEP_SUMMARY: summaryFile(), ...extra });
      // A folder of its own beside the documented one: the tests run side by side.
      const variant = writeDocumentedRun(
        documentedRun,
        context,
        fs.mkdtempSync(path.join(consumer.dir, `${documentedRun.dir}-`)),
      );
      writeFiles(variant, extraFiles ?? {});
      const outcome = await run(
        bin('testrun'),
        ['run', '--project', documentedRun.project, '--', ...documentedRun.command()],
        { cwd: variant, env },
      );
      const output = outcome.stdout + outcome.stderr;
      expect(outcome.code, output).toBe(1);
      expect(output).toMatch(why);
      const [stored] = await server.server.store.runs();
      if (ended === 'not created') {
        expect(stored, output).toBeUndefined();
        return;
      }
      expect(await server.server.store.endOf(stored!.id)).toMatchObject({ status: 'failed' });
      expect(output).toMatch(
        new RegExp(`^testrun run: run ${stored!.id} marked failed \\(the command exited 1\\)`, 'm'),
      );
      // Its summary names every failed test with why; a quarantined one is marked, not hidden.
      const results = await server.server.store.results(stored!.id);
      const summary = readSummary(fs.readFileSync(env.GITHUB_STEP_SUMMARY!, 'utf8'));
      expect(summary.heading).toBe(`❌ ${documentedRun.project} · ${documentedRun.framework}: failed`);
      expect(summary.tables['Why it failed']?.map((row) => row.cells[0])).toEqual(
        results
          .filter((result) => result.status === 'failed')
          .map((result) => `${result.testCase}${result.quarantined ? ' (quarantined)' : ''}`),
      );
    },
  );
});

/** A fresh file for a CI summary, as GitHub Actions gives each step. */
