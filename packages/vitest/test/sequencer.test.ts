import fs from 'node:fs';
import path from 'node:path';
import { startTestServer, tempDir } from '@testrun/test-utils';
import { describe, expect, it, vi } from 'vitest';
import type { TestSpecification, Vitest } from 'vitest/node';
import { TestrunSequencer, testrunSequencer } from '../src/sequencer.js';

// The sequencer's shard(), in this process, as Vitest calls it (a Vitest with --shard, its
// files as specifications), against a real server. A real `vitest run --shard` with it:
// e2e/planned-shards.test.ts.

function suite(names: readonly string[]): { root: string; specs: TestSpecification[] } {
  const root = tempDir('testrun-sequencer-');
  const specs = names.map((name, index) => {
    fs.writeFileSync(path.join(root, name), 'x'.repeat(100 * (index + 1)));
    return { moduleId: path.join(root, name), project: { config: { root } } } as unknown as TestSpecification;
  });
  return { root, specs };
}

const vitest = (
  root: string,
  shard: { index: number; count: number } | undefined,
  reporters: unknown[] = [],
) => ({ config: { root, shard, reporters }, version: '4.1.0' }) as unknown as Vitest;

describe('TestrunSequencer', () => {
  it("shards by the service's plan with the reporter's options, and answers the reporter's second asking from memory", async () => {
    const server = await startTestServer();
    const { root, specs } = suite(['a.test.ts', 'b.test.ts', 'c.test.ts']);
    const reporters = [
      ['default', {}],
      ['@testrun/vitest', { apiKey: server.apiKey, baseUrl: server.url, planKey: 'k-1' }],
    ];
    const lines = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const first = await new TestrunSequencer(vitest(root, { index: 1, count: 2 }, reporters)).shard(specs);
      const again = await new TestrunSequencer(vitest(root, { index: 1, count: 2 }, reporters)).shard(
        [...specs].reverse(),
      );
      expect(first.map((spec) => path.basename(spec.moduleId))).toEqual(['c.test.ts']);
      expect(again).toEqual(first);
      expect(server.server.requests.filter((request) => request.route === 'createPlan')).toHaveLength(1);
      expect(lines.mock.calls.map(([text]) => String(text))).toEqual([
        expect.stringMatching(
          /^testrun: the service has no durations of these files yet: plan "k-1" splits them by size, the same for every shard; shard 1\/2 runs 1 file of 3\n$/,
        ),
      ]);
    } finally {
      lines.mockRestore();
    }
  });

  it('fails the run, before any file runs, when the plan holds other files', async () => {
    const server = await startTestServer();
    const options = { apiKey: server.apiKey, baseUrl: server.url, planKey: 'k-2', project: 'shop' };
    const first = suite(['a.test.ts', 'b.test.ts']);
    const lines = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const Sequencer = testrunSequencer(options);
      await new Sequencer(vitest(first.root, { index: 1, count: 2 })).shard(first.specs);
      const other = suite(['a.test.ts', 'b.test.ts', 'new.test.ts']);
      await expect(
        new Sequencer(vitest(other.root, { index: 2, count: 2 })).shard(other.specs),
      ).rejects.toThrow(
        /^testrun: plan "k-2" of project "shop" for 2 shards was made, at .*, for other files than this shard was given: this shard has 1 the plan does not \("new\.test\.ts"\)/,
      );
    } finally {
      lines.mockRestore();
    }
  });

  it('leaves a run without --shard as it is', async () => {
    const { root, specs } = suite(['a.test.ts']);
    expect(await new TestrunSequencer(vitest(root, undefined)).shard(specs)).toBe(specs);
  });
});
