import fs from 'node:fs';
import path from 'node:path';
import type { Config, Test } from '@jest/reporters';
import { startTestServer, tempDir } from '@testrun/test-utils';
import { describe, expect, it, vi } from 'vitest';
import TestrunSequencer from '../src/sequencer.js';

// The sequencer as Jest makes and calls it (`new Sequencer({ contexts, globalConfig })`, then
// shard() with --shard), against a real server; Jest's own sequencer still sorts. A real
// `jest --shard` with it: e2e/planned-shards.test.ts.

function suite(names: readonly string[]): { rootDir: string; tests: Test[] } {
  const rootDir = tempDir('testrun-jest-sequencer-');
  const tests = names.map((name, index) => {
    fs.writeFileSync(path.join(rootDir, name), 'x'.repeat(100 * (index + 1)));
    return {
      path: path.join(rootDir, name),
      // What Jest's own sequencer reads of a test's context: no cache of earlier runs, the file's size.
      context: {
        config: { rootDir, cache: false },
        hasteFS: { getSize: (file: string) => fs.statSync(file).size },
      },
    } as unknown as Test;
  });
  return { rootDir, tests };
}

const globalConfig = (rootDir: string, options: object) =>
  ({
    rootDir,
    reporters: [
      ['default', {}],
      ['@testrun/jest', options],
    ],
  }) as unknown as Config.GlobalConfig;

describe('the Jest sequencer', () => {
  it("shards by the service's plan with the reporter's options", async () => {
    const server = await startTestServer();
    const { rootDir, tests } = suite(['a.test.js', 'b.test.js', 'c.test.js']);
    const options = { apiKey: server.apiKey, baseUrl: server.url, planKey: 'j-1' };
    const lines = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const sequencer = new TestrunSequencer({ contexts: [], globalConfig: globalConfig(rootDir, options) });
      const shard2 = await sequencer.shard(tests, { shardIndex: 2, shardCount: 2 });
      expect(shard2.map((test) => path.basename(test.path))).toEqual(['a.test.js', 'b.test.js']);
      expect(lines).toHaveBeenCalledWith(
        expect.stringMatching(/^testrun: .*plan "j-1".* shard 2\/2 runs 2 files of 3\n$/),
      );
    } finally {
      lines.mockRestore();
    }
    expect(server.server.requests.filter((request) => request.route === 'createPlan')).toHaveLength(1);
  });

  it("leaves the order to Jest's own sequencer, found where Jest loads it", async () => {
    const { rootDir, tests } = suite(['a.test.js', 'b.test.js']);
    const sequencer = new TestrunSequencer({ contexts: [], globalConfig: globalConfig(rootDir, {}) });
    // Jest's own sorts files it has no times for by size, the largest first.
    expect((await sequencer.sort(tests)).map((test) => path.basename(test.path))).toEqual([
      'b.test.js',
      'a.test.js',
    ]);
  });
});
