import path from 'node:path';
import { FIXTURES_DIR, reporterEnv, runVitest, startTestServer } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

// "Passed on a retry within one run, where the runner says so"
// (docs/design/flaky.md#passed-on-a-retry-within-one-run), end to end: a real Vitest run (`retry:
// 2`) of a test that fails its first attempt and passes its second, its reporter against a real
// server that accepts the failure-details extension, and the flaky page read over HTTP. The rule
// itself is unit-tested in flaky-or-failing.test.ts.

const RETRIED = 'retried > passes on the second attempt';

describe('the flaky page after a real run whose test passed on a retry', () => {
  it('lists the test as flaky, passed on attempt 2 in that run, with a link to the run; its test page says the attempt', async () => {
    const started = await startTestServer();
    const outcome = await runVitest({
      cwd: path.join(FIXTURES_DIR, 'odd-names'),
      args: ['retried.test.js'],
      env: reporterEnv(started),
    });
    expect(outcome.code).toBe(0);

    const [run] = await started.server.store.runs();
    const results = await started.server.store.results(run!.id);
    expect(results.map((r) => [r.testCase, r.status, r.details])).toEqual([
      [RETRIED, 'passed', { attempts: 2 }],
    ]);

    const markup = await (
      await fetch(`${started.url}/flaky?project=${encodeURIComponent(run!.project)}`)
    ).text();
    const start = markup.indexOf('<section class="project"');
    const section = markup.slice(start, markup.indexOf('</section>', start));
    // No CI, no commit tag: the older rule, and the runner's word is enough under it.
    expect(section).toContain('data-rule="passed-and-failed"');
    const flaky = section.slice(0, section.indexOf('</ol>'));
    expect(
      [...flaky.matchAll(/class="name test-link"[^>]*>([^<]*)</g)].map((m) => m[1]?.replaceAll('&gt;', '>')),
    ).toEqual([RETRIED]);
    expect(flaky).toContain(`data-run="${run!.id}" data-attempts="2"`);
    expect(flaky).toMatch(new RegExp(`passed on attempt 2 in <a href="/runs/${run!.id}">run ${run!.id}</a>`));

    // The test's own page says it too, beside the run.
    const testPage = /class="name test-link" href="([^"]*)"/.exec(flaky)?.[1]?.replaceAll('&amp;', '&');
    const history = await (await fetch(`${started.url}${testPage}`)).text();
    expect(history).toContain(`data-run-id="${run!.id}" data-status="passed"`);
    expect(history).toContain('passed <span class="muted retried-pass">on attempt 2</span>');
  });
});
