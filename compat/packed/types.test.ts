import { npmEnv as consumerEnv, runProcess as run } from '@testrun/test-utils';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  INSTALL_TIMEOUT_MS,
  type InstalledConsumer,
  installedConsumer,
  README_CODE_DIR,
} from './consumer.js';

// The packages' types as a TypeScript user gets them from npm (consumer.ts writes the files).

let consumer: InstalledConsumer;

beforeAll(async () => {
  consumer = await installedConsumer();
}, INSTALL_TIMEOUT_MS);

describe.concurrent('the installed types', () => {
  it('exports the option types to ESM and CommonJS TypeScript (module nodenext)', async () => {
    const tsc = await run('npx', ['tsc', '--noEmit', '-p', '.'], { cwd: consumer.dir, env: consumerEnv() });
    expect(tsc.code, tsc.stdout + tsc.stderr).toBe(0);
  });

  it("type-checks the TypeScript of the READMEs' code against the installed types", async () => {
    const tsc = await run('npx', ['tsc', '--noEmit', '-p', `${README_CODE_DIR}/tsconfig.json`], {
      cwd: consumer.dir,
      env: consumerEnv(),
    });
    expect(tsc.code, tsc.stdout + tsc.stderr).toBe(0);
  });
});
