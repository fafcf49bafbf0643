import path from 'node:path';
import { reporterEnv, runVitest, startTestServer } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

// The commit the flaky page judges by is the one core's CI tags carry: real Vitest runs with
// GitHub Actions' variables set (the tests' own CI variables are cleared by cleanEnv), and
// the page read over HTTP. The rule itself is unit-tested in flaky-or-failing.test.ts, the CI
// tags in packages/core/test/options/ci-tags.e2e.test.ts: four real runs join them, in compat.

const examplesDir = path.resolve(import.meta.dirname, '../examples');
const FLIPPING = 'Cart > keeps the cart when the page reloads';
const sha = (letter: string) => letter.repeat(40);

describe('the flaky page after real runs tagged with their commit', () => {
  it('lists the test one commit both failed and passed as flaky, and the test failing since a later commit as newly failing', async () => {
    const started = await startTestServer();
    const runOn = async (commit: string, failing: boolean) => {
      const env = reporterEnv(started, {
        GITHUB_ACTIONS: 'true',
        GITHUB_SHA: sha(commit),
        // The example fails FLIPPING when this is set (what `pnpm demo` does in its second round).
        EXAMPLE_FLAKY_FAIL: failing ? '1' : undefined,
      });
      return (await runVitest({ cwd: path.join(examplesDir, 'vitest'), env })).code;
    };

    // a passes; b fails, then a rerun of b passes; c fails.
    const codes = [await runOn('a', false), await runOn('b', true), await runOn('b', false)];
    expect(codes).toEqual([0, 1, 0]);
    const [project] = new Set((await started.server.store.runs()).map((run) => run.project));
    expect((await started.server.store.runs()).map((run) => run.tags)).toEqual(
      ['a', 'b', 'b'].map((commit) => ['ci:github', `commit:${sha(commit)}`]),
    );
    const section = async () => {
      const markup = await (await fetch(`${started.url}/flaky?project=${project}`)).text();
      const start = markup.indexOf('<section class="project"');
      return markup.slice(start, markup.indexOf('</section>', start));
    };
    /** The test names in a part of the page, as a reader sees them. */
    const names = (markup: string) =>
      [...markup.matchAll(/class="name test-link"[^>]*>([^<]*)</g)].map((m) => m[1]?.replaceAll('&gt;', '>'));
    const flakyNames = (markup: string) => names(markup.slice(0, markup.indexOf('<h3>Newly failing')));
    const newlyFailingNames = (markup: string) => names(markup.slice(markup.indexOf('<h3>Newly failing')));

    const afterRerun = await section();
    expect(afterRerun).toContain('data-rule="same-commit"');
    expect(flakyNames(afterRerun)).toEqual([FLIPPING]);
    expect(afterRerun).toContain(`data-commit="${sha('b')}"`);
    expect(newlyFailingNames(afterRerun)).toEqual([]);

    expect(await runOn('c', true)).toBe(1);
    const afterC = await section();
    const [, , , onC] = await started.server.store.runs();
    expect(flakyNames(afterC)).toEqual([FLIPPING]);
    expect(newlyFailingNames(afterC)).toEqual([FLIPPING]);
    expect(afterC).toContain(`<a class="first-failing" href="/runs/${onC?.id}">`);
  });
});
