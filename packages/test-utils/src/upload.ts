import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { cleanEnv } from './environment.js';
import type { TestServer } from './server.js';
import { tempDir } from './temp-dir.js';

/** The environment of a CI step that uploads to `server` (none: no service), spooling into a fresh directory. */
export function uploadEnv(
  server: { url: string; apiKey: string } | undefined,
  extra: Record<string, string> = {},
): NodeJS.ProcessEnv {
  return cleanEnv({
    TESTRUN_API_KEY: server?.apiKey,
    TESTRUN_BASE_URL: server?.url,
    TESTRUN_SPOOL_DIR: tempDir('testrun-upload-spool-'),
    ...extra,
  });
}

/** A fresh checkout named `shop` (its root holds .git), with `files` (name → content) in `reports/`. */
export function uploadCheckout(files: Record<string, string | Buffer> = {}): string {
  const dir = path.join(tempDir('testrun-upload-'), 'shop');
  fs.mkdirSync(path.join(dir, '.git'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'reports'));
  for (const [name, content] of Object.entries(files))
    fs.writeFileSync(path.join(dir, 'reports', name), content);
  return dir;
}

/** The one run `server` stored, with its results; fails the test when it stored another number of runs. */
export async function onlyRun(server: TestServer) {
  const runs = await server.server.store.runs();
  expect(runs).toHaveLength(1);
  return { run: runs[0]!, results: await server.server.store.results(runs[0]!.id) };
}
