import { createHash } from 'node:crypto';
import { storeEngines } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';
import { type Answer, createRun, get, patch, post, result, serverOn, startServer } from '../client.js';

// The pages over HTTP, markup-level; what a browser shows is in pages.browser.e2e.test.ts.

type Server = Awaited<ReturnType<typeof startServer>>;

async function runWith(server: Server, run: object, results: object[]): Promise<string> {
  const runId = await createRun(server, run);
  if (results.length > 0) await post(server, `/api/v1/runs/${runId}/results`, { results });
  return runId;
}

function page(server: Server, path: string): Promise<Answer> {
  return get(server, path, { key: null });
}

/** The test names in the rows of a table or list with this id (or of the whole page). */
function rowNames(markup: string): string[] {
  return [...markup.matchAll(/class="name test-link" href="[^"]*">([^<]*)<\/a>/g)].map((m) => m[1] ?? '');
}

function section(markup: string, id: string): string {
  const start = markup.indexOf(`id="${id}"`);
  return start === -1 ? '' : markup.slice(start, markup.indexOf('</table>', start));
}

describe.each(storeEngines())('the runs list on $name', (engine) => {
  const startServer = serverOn(engine);
  it('shows each run with a bar whose segments carry the counts, counts by status and the duration with its unit', async () => {
    const server = await startServer();
    const runId = await runWith(server, { project: 'shop', framework: 'vitest', tags: ['branch:main'] }, [
      result({ duration: 1000 }),
      result({ duration: 234 }),
      result({ status: 'failed', duration: 0 }),
    ]);

    const answer = await page(server, '/');

    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(answer.text).toContain(`<a class="name" href="/runs/${runId}"><strong>shop</strong></a>`);
    expect(answer.text).toContain('<span class="tag">branch:main</span>');
    expect(answer.text).toMatch(
      /<rect class="passed" data-status="passed" data-count="2" x="0%" width="66.6667%" height="100%"/,
    );
    expect(answer.text).toMatch(
      /<rect class="failed" data-status="failed" data-count="1" x="66.6667%" width="33.3333%" height="100%"/,
    );
    expect(answer.text).toContain('<span class="count passed">2 passed</span>');
    // Not ended: its wall clock runs to the last results; the tests' sum follows, said as such.
    expect(answer.text).toMatch(
      /<span class="duration" data-kind="wall-to-last-results" title="\d+ ms, from the run’s creation to the last results received; the run has not ended">[^<]+<\/span> <span class="muted">wall clock to last results<\/span>/,
    );
    expect(answer.text).toContain(
      '<span class="tests-duration" title="1234 ms, the sum of its tests’ durations">1.2 s</span> in tests',
    );
    expect(answer.text).toMatch(
      /<time datetime="[^"]+" title="\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC">just now<\/time>/,
    );
  });

  it('shows an ended run’s wall clock from creation to end, and a run without results by its tests’ sum', async () => {
    const server = await startServer();
    const ended = await runWith(server, { project: 'web', framework: 'vitest' }, [result({ duration: 7 })]);
    await patch(server, `/api/v1/runs/${ended}`, { status: 'completed' });
    await runWith(server, { project: 'empty', framework: 'vitest' }, []);
    const text = (await page(server, '/')).text;
    const cardOf = (project: string) =>
      text.slice(text.indexOf(`<strong>${project}</strong>`)).split('</li>')[0]!;

    expect(cardOf('web')).toMatch(
      /<span class="duration" data-kind="wall" title="\d+ ms, from the run’s creation to its end">/,
    );
    expect(cardOf('web')).toContain('<span class="muted">wall clock</span>');
    expect(cardOf('web')).toContain('>7.0 ms</span> in tests');
    expect(cardOf('empty')).toContain(
      '<span class="duration" data-kind="tests" title="0 ms, the sum of its tests’ durations">0.0 ms</span> <span class="muted">in tests</span>',
    );
  });

  it('marks a run with a failed test by a badge that says how many, and its card, whatever its share', async () => {
    const server = await startServer();
    const passing = Array.from({ length: 159 }, (_, n) => result({ testCase: `t${n}` }));
    await runWith(server, { project: 'one-failure', framework: 'vitest' }, [
      ...passing,
      result({ status: 'failed' }),
    ]);
    await runWith(server, { project: 'all-green', framework: 'vitest' }, passing);
    const text = (await page(server, '/')).text;
    const cardOf = (project: string) =>
      text.slice(text.lastIndexOf('<li', text.indexOf(`<strong>${project}</strong>`))).split('</li>')[0]!;

    expect(cardOf('one-failure')).toMatch(/^<li class="card run has-failures"/);
    expect(cardOf('one-failure')).toContain('<span class="failures">✗ 1 failed test</span>');
    expect(cardOf('all-green')).toMatch(/^<li class="card run"/);
    expect(cardOf('all-green')).not.toContain('class="failures"');
  });

  it('links the commit, branch and build tags to where CI said, on the runs list and the run page', async () => {
    const server = await startServer();
    const runId = await runWith(
      server,
      {
        project: 'shop',
        framework: 'vitest',
        tags: [
          'ci:github',
          'branch:main',
          'commit:abc123',
          'build:77',
          'build-url:https://github.com/acme/shop/actions/runs/77',
          'repo-url:https://github.com/acme/shop',
        ],
      },
      [result()],
    );
    for (const path of ['/', `/runs/${runId}`]) {
      const text = (await page(server, path)).text;
      expect(text).toContain(
        '<a class="tag" href="https://github.com/acme/shop/tree/main" rel="external noopener noreferrer">branch:main</a>',
      );
      expect(text).toContain(
        '<a class="tag" href="https://github.com/acme/shop/commit/abc123" rel="external noopener noreferrer">commit:abc123</a>',
      );
      expect(text).toContain(
        '<a class="tag" href="https://github.com/acme/shop/actions/runs/77" rel="external noopener noreferrer">build:77</a>',
      );
      expect(text).not.toContain('<span class="tag">build-url:');
      expect(text).toContain('>github.com/acme/shop</a>');
    }
  });

  it('narrows the runs by project, framework and tag, and says when none match', async () => {
    const server = await startServer();
    const web = await runWith(server, { project: 'web', framework: 'vitest', tags: ['nightly'] }, []);
    const api = await runWith(server, { project: 'api', framework: 'jest', tags: ['nightly', 'pr'] }, []);
    const listed = async (query: string) =>
      [...(await page(server, `/${query}`)).text.matchAll(/data-run-id="([^"]+)"/g)].map((m) => m[1]);

    expect(await listed('')).toEqual([api, web]);
    expect(await listed('?project=web')).toEqual([web]);
    expect(await listed('?framework=jest')).toEqual([api]);
    expect(await listed('?tag=nightly')).toEqual([api, web]);
    expect(await listed('?tag=pr&project=')).toEqual([api]);
    expect(await listed('?project=web&framework=jest')).toEqual([]);
    expect((await page(server, '/?project=web&framework=jest')).text).toContain(
      'No runs match these filters.',
    );
  });

  it('narrows the runs by branch, picked from recent branches or typed, a `*` matching any text', async () => {
    const server = await startServer();
    const main = await runWith(server, { project: 'web', framework: 'vitest', tags: ['branch:main'] }, []);
    const fix = await runWith(
      server,
      { project: 'web', framework: 'vitest', tags: ['branch:release/1.2'] },
      [],
    );
    const next = await runWith(
      server,
      { project: 'web', framework: 'vitest', tags: ['branch:release/2.0'] },
      [],
    );
    const odd = await runWith(server, { project: 'web', framework: 'vitest', tags: ['branch:50%_off'] }, []);
    await runWith(server, { project: 'web', framework: 'vitest', tags: ['mainline'] }, []);
    const listed = async (query: string) =>
      [...(await page(server, `/${query}`)).text.matchAll(/data-run-id="([^"]+)"/g)].map((m) => m[1]);

    expect(await listed('?branch=main')).toEqual([main]);
    expect(await listed('?branch=release%2F*')).toEqual([next, fix]);
    expect(await listed('?branch=*1*')).toEqual([fix]);
    expect(await listed('?branch=release')).toEqual([]);
    // % and _ are the branch's own characters, not patterns.
    expect(await listed('?branch=50%25_off')).toEqual([odd]);
    expect(await listed('?branch=50%25')).toEqual([]);

    const markup = (await page(server, '/?branch=release%2F*')).text;
    expect(markup).toContain('<input name="branch" list="branch-choices" value="release/*"');
    const suggestions = markup.slice(
      markup.indexOf('<datalist id="branch-choices">'),
      markup.indexOf('</datalist>'),
    );
    expect([...suggestions.matchAll(/<option value="([^"]*)">/g)].map((m) => m[1])).toEqual([
      '50%_off',
      'main',
      'release/1.2',
      'release/2.0',
    ]);
  });

  it('pages the runs, newest first, 50 a page, keeping the filters in its links', async () => {
    const server = await startServer();
    const ids: string[] = [];
    for (let n = 0; n < 120; n++)
      ids.push(await runWith(server, { project: 'web', framework: 'vitest' }, []));
    const newestFirst = ids.reverse();
    const listed = (answer: Answer) => [...answer.text.matchAll(/data-run-id="([^"]+)"/g)].map((m) => m[1]);

    const first = await page(server, '/?project=web');
    const third = await page(server, '/?project=web&page=3');
    const beyond = await page(server, '/?project=web&page=99');

    expect(listed(first)).toEqual(newestFirst.slice(0, 50));
    expect(first.text).toContain('Runs 1–50 of 120, newest first.');
    expect(first.text).toContain('<a href="/?project=web&amp;page=2">older →</a>');
    expect(listed(third)).toEqual(newestFirst.slice(100));
    expect(third.text).toContain('<a href="/?project=web&amp;page=2">← newer</a>');
    expect(listed(beyond)).toEqual(listed(third));
  });

  it('offers in the tag filter the tags of recent runs, at most 200, not every tag ever sent', async () => {
    const server = await startServer();
    for (let i = 0; i < 30; i += 1) {
      await createRun(server, {
        project: 'shop',
        framework: 'vitest',
        tags: Array.from({ length: 10 }, (_, t) => `commit:${i}-${t}`),
      });
    }
    const markup = (await page(server, '/')).text;
    const tagSelect = markup.slice(
      markup.indexOf('<select name="tag">'),
      markup.indexOf('</select>', markup.indexOf('<select name="tag">')),
    );
    expect(tagSelect.match(/<option /g)).toHaveLength(201);
  });

  it('says when there are no runs yet which address and variables make a reporter report here', async () => {
    const server = await startServer();
    const empty = (await page(server, '/')).text;
    expect(empty).toContain('No runs yet.');
    expect(empty).toContain(`TESTRUN_BASE_URL=${server.url}\n`);
    expect(empty).toContain('TESTRUN_API_KEY=<var>');
  });
});

describe.each(storeEngines())('the run page on $name', (engine) => {
  const startServer = serverOn(engine);
  it('lists failed tests first and the slowest tests, each linked to its history', async () => {
    const server = await startServer();
    const runId = await runWith(server, { project: 'shop', framework: 'vitest' }, [
      result({ testCase: 'quick', duration: 1 }),
      result({ testCase: 'slow', duration: 65_000 }),
      result({ testCase: 'broken', status: 'failed', duration: 30 }),
    ]);

    const answer = await page(server, `/runs/${runId}`);

    expect(rowNames(section(answer.text, 'failed-tests'))).toEqual(['broken']);
    expect(rowNames(section(answer.text, 'slowest-tests'))).toEqual(['slow', 'broken', 'quick']);
    expect(answer.text).toContain('>1 min 5 s<');
    expect(answer.text).toContain(
      '<a class="name test-link" href="/test?project=shop&amp;suite=src%2Fcart.test.ts&amp;test=broken">broken</a>',
    );
  });

  it("gives each failed test's row the id a CI summary links to, the same for the test, numbered when its names repeat", async () => {
    const server = await startServer();
    const runId = await runWith(server, { project: 'shop', framework: 'vitest' }, [
      result({ testCase: 'broken <b>|', status: 'failed' }),
      result({ testCase: 'fine' }),
      result({ testCase: 'broken <b>|', status: 'failed' }),
    ]);
    const digest = createHash('sha256').update('src/cart.test.ts\nbroken <b>|').digest('hex').slice(0, 12);

    const rows = section((await page(server, `/runs/${runId}`)).text, 'failed-tests');
    expect([...rows.matchAll(/<tr class="test" id="([^"]+)"/g)].map((match) => match[1])).toEqual([
      `test-${digest}`,
      `test-${digest}-2`,
    ]);
  });

  it('lists among the slowest only tests that ran: never a skipped or todo one, however long', async () => {
    const server = await startServer();
    const runId = await runWith(server, { project: 'shop', framework: 'playwright' }, [
      result({ testCase: 'quick', duration: 1 }),
      result({ testCase: 'skipped after its hook ran', status: 'skipped', duration: 90_000 }),
      result({ testCase: 'to write', status: 'todo', duration: 80_000 }),
      result({ testCase: 'broken', status: 'failed', duration: 30 }),
    ]);

    const slowest = async (query: string) =>
      rowNames(section((await page(server, `/runs/${runId}${query}`)).text, 'slowest-tests'));

    expect(await slowest('')).toEqual(['broken', 'quick']);
    expect(await slowest('?status=skipped')).toEqual([]);
    expect((await page(server, `/runs/${runId}?status=skipped`)).text).not.toContain('Slowest tests');
  });

  it('offers a status filter for each status the run holds, and none for a status it has no test of', async () => {
    const server = await startServer();
    const runId = await runWith(server, { project: 'shop', framework: 'vitest' }, [
      result({ testCase: 'adds an item' }),
      result({ testCase: 'removes an item', status: 'failed' }),
      result({ testCase: 'applies a coupon', status: 'skipped' }),
    ]);
    const filters = async (query: string) => {
      const markup = (await page(server, `/runs/${runId}${query}`)).text;
      const nav = markup.slice(markup.indexOf('<nav class="statuses">'), markup.indexOf('</nav>'));
      return [...nav.matchAll(/<a [^>]*>([^<]*)<\/a>/g)].map((m) => m[1]);
    };

    expect(await filters('')).toEqual(['all (3)', 'passed (1)', 'failed (1)', 'skipped (1)']);
    // A link to a status the run holds none of still shows the filter it applies.
    expect(await filters('?status=todo')).toEqual([
      'all (3)',
      'passed (1)',
      'failed (1)',
      'skipped (1)',
      'todo (0)',
    ]);
  });

  it('groups tests by suite with counts and duration, suites with failures first and unfolded', async () => {
    const server = await startServer();
    const runId = await runWith(server, { project: 'shop', framework: 'vitest' }, [
      result({ testSuite: 'a.test.ts', testCase: 'one', duration: 400 }),
      result({ testSuite: 'b.test.ts', testCase: 'two', duration: 1 }),
      result({ testSuite: 'b.test.ts', testCase: 'three', status: 'failed', duration: 2 }),
    ]);

    const suites = (await page(server, `/runs/${runId}`)).text.split('<details class="suite"').slice(1);

    expect(suites).toHaveLength(2);
    expect(suites[0]).toMatch(/^ open>/);
    expect(suites[0]).toContain(
      '<strong>b.test.ts</strong></span> <span class="muted">2 tests · 3.0 ms</span>',
    );
    expect(rowNames(suites[0] ?? '')).toEqual(['three', 'two']);
    expect(suites[1]).toMatch(/^>/);
    expect(suites[1]).toContain(
      '<strong>a.test.ts</strong></span> <span class="muted">1 test · 400 ms</span>',
    );
  });

  it('narrows the tests by a search over suite and test names, ignoring case, and by status', async () => {
    const server = await startServer();
    const runId = await runWith(server, { project: 'shop', framework: 'vitest' }, [
      result({ testSuite: 'src/cart.test.ts', testCase: 'adds an item' }),
      result({ testSuite: 'src/cart.test.ts', testCase: 'removes an item', status: 'failed' }),
      result({ testSuite: 'src/pricing.test.ts', testCase: 'adds VAT' }),
    ]);
    const shown = async (query: string) => {
      const markup = (await page(server, `/runs/${runId}${query}`)).text;
      return rowNames(markup.slice(markup.indexOf('id="suites"'))).sort();
    };

    expect(await shown('?q=ADDS')).toEqual(['adds VAT', 'adds an item']);
    expect(await shown('?q=pricing')).toEqual(['adds VAT']);
    expect(await shown('?q=nothing-like-it')).toEqual([]);
    expect(await shown('?status=failed')).toEqual(['removes an item']);
    expect(await shown('?q=cart&status=passed')).toEqual(['adds an item']);
    const searched = (await page(server, `/runs/${runId}?q=cart&status=passed`)).text;
    expect(searched).toContain('<input type="search" name="q" value="cart">');
    expect(searched).toContain('<input type="hidden" name="status" value="passed">');
    expect(searched).toContain('Showing 1 of 3 results: passed matching “cart”.');
  });

  it('pages a large run: 1,000 results a page with a pager, every failed test listed from any page', async () => {
    const server = await startServer();
    const runId = await createRun(server);
    for (let batch = 0; batch < 3; batch += 1) {
      const results = Array.from({ length: 900 }, (_, i) => {
        const n = batch * 900 + i;
        return result({
          testCase: `test ${n}`,
          status: n === 2500 ? 'failed' : 'passed',
          duration: n === 2600 ? 99_999 : 1,
        });
      });
      await post(server, `/api/v1/runs/${runId}/results`, { results });
    }

    const first = (await page(server, `/runs/${runId}`)).text;
    const suiteRows = (markup: string) => markup.slice(markup.indexOf('id="suites"'));
    expect(rowNames(suiteRows(first))).toHaveLength(1000);
    expect(rowNames(section(first, 'failed-tests'))).toEqual(['test 2500']);
    expect(rowNames(section(first, 'slowest-tests'))[0]).toBe('test 2600');
    expect(first).toContain('results 1–1,000 of 2,700 · page 1 of 3');
    expect(first).toContain(`href="/runs/${runId}?page=2"`);

    const last = (await page(server, `/runs/${runId}?page=3`)).text;
    const lastNames = rowNames(suiteRows(last));
    expect(lastNames).toHaveLength(700);
    expect(lastNames).toContain('test 2000');
    expect(lastNames).not.toContain('test 1999');
  });

  it('answers 404 with a page for an unknown run', async () => {
    const server = await startServer();
    const answer = await page(server, '/runs/nope');
    expect(answer.status).toBe(404);
    expect(answer.text).toContain('No run nope');
  });
});

describe('a path that is no page', () => {
  it('answers a browser with a 404 page, and the API and plain clients with the JSON error', async () => {
    const server = await startServer();
    const browserAccept = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

    const asBrowser = await get(server, '/no/such/page?x=<b>', { key: null, headers: browserAccept });
    expect(asBrowser.status).toBe(404);
    expect(asBrowser.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(asBrowser.text).toContain('<h1>Not found</h1>');
    expect(asBrowser.text).toContain('There is no page at <code>/no/such/page</code>.');

    const apiAsBrowser = await get(server, '/api/v2/runs', { headers: browserAccept });
    expect(apiAsBrowser.status).toBe(404);
    expect(apiAsBrowser.body).toMatchObject({ error: { code: 'not_found' } });

    const plain = await get(server, '/no/such/page', { key: null });
    expect(plain.status).toBe(404);
    expect(plain.body).toEqual({ error: { code: 'not_found', message: 'no route for GET /no/such/page' } });
  });
});

describe.each(storeEngines())('the test page on $name', (engine) => {
  const startServer = serverOn(engine);
  it("shows the test's outcome in each of its project's runs that held it, newest first", async () => {
    const server = await startServer();
    const first = await runWith(server, { project: 'shop', framework: 'vitest' }, [result({ duration: 10 })]);
    const without = await runWith(server, { project: 'shop', framework: 'vitest' }, [
      result({ testCase: 'other' }),
    ]);
    await runWith(server, { project: 'elsewhere', framework: 'vitest' }, [result({ status: 'failed' })]);
    const last = await runWith(server, { project: 'shop', framework: 'vitest' }, [
      result({ status: 'failed', duration: 2500 }),
    ]);

    const answer = await page(
      server,
      '/test?project=shop&suite=src%2Fcart.test.ts&test=cart+%3E+adds+an+item',
    );
    const rows = [
      ...answer.text.matchAll(/<tr class="outcome" data-run-id="([^"]+)" data-status="([^"]+)">/g),
    ];

    expect(answer.status).toBe(200);
    expect(rows.map((m) => [m[1], m[2]])).toEqual([
      [last, 'failed'],
      [first, 'passed'],
    ]);
    expect(answer.text).toContain("In 2 of the project's last 3 runs");
    expect(answer.text).toContain('>2.5 s<');
    expect([...answer.text.matchAll(/<rect class="(\w+)" data-status="(\w+)"/g)].map((m) => m[2])).toEqual([
      'passed',
      'absent',
      'failed',
    ]);
    expect(answer.text).toContain(`href="/runs/${without}"`);
  });

  it('answers 400 with an explanation when the test is not named', async () => {
    const server = await startServer();
    const answer = await page(server, '/test?project=shop');
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('A test is named by its project, suite and name');
  });
});

describe.each(storeEngines())('the flaky tests page on $name', (engine) => {
  const startServer = serverOn(engine);
  /** The markup of one project's section of the flaky page. */
  const projectSection = (markup: string, project: string) => {
    const start = markup.indexOf(`data-project="${project}"`);
    return start === -1 ? '' : markup.slice(start, markup.indexOf('</section>', start));
  };
  /** The test names of a section's flaky list and of its newly failing list. */
  const lists = (section: string) => {
    const newly = section.indexOf('<h3>Newly failing</h3>');
    return {
      flaky: rowNames(newly === -1 ? section : section.slice(0, newly)),
      newlyFailing: newly === -1 ? [] : rowNames(section.slice(newly)),
    };
  };

  it('without commit tags, lists per project the tests that passed and failed within its last runs, and says so', async () => {
    const server = await startServer();
    for (const status of ['passed', 'failed', 'passed']) {
      await runWith(server, { project: 'shop', framework: 'vitest' }, [
        result({ testCase: 'flaky', status }),
        result({ testCase: 'stable' }),
      ]);
    }
    await runWith(server, { project: 'calm', framework: 'jest' }, [result({ testCase: 'flaky' })]);

    const all = await page(server, '/flaky');
    const calm = await page(server, '/flaky?project=calm');

    expect(all.text).toContain("within its project's last 20 runs, it passed in at least one run and failed");
    const shop = projectSection(all.text, 'shop');
    expect(shop).toMatch(/^data-project="shop" data-rule="passed-and-failed">/);
    expect(shop).toContain('<p class="rule">Judged across runs: no run carried a commit tag.</p>');
    expect(lists(shop)).toEqual({ flaky: ['flaky'], newlyFailing: [] });
    expect(shop).toContain('<strong>2</strong> flips');
    // The rule is said once, at the top; a project with nothing to show is a line, not a section.
    expect(all.text.split("within its project's last 20 runs")).toHaveLength(2);
    expect(all.text).not.toContain('<section class="project" data-project="calm"');
    expect(all.text).toContain(
      '<p id="nothing-flaky" class="none">Nothing flaky or newly failing in <a class="name" href="/flaky?project=calm" data-project="calm">calm</a>.</p>',
    );
    expect(calm.text).not.toContain('data-project="shop"');
    expect(calm.text).toContain('No flaky tests.');
  });

  it('shows ten tests a list on the page for all projects, worst first, and links to the rest on the project page', async () => {
    const server = await startServer();
    const names = Array.from({ length: 12 }, (_, i) => `flaky ${String(i).padStart(2, '0')}`);
    // Test n fails in runs 1 to n + 1 and passes around them: two flips each, and the most failures last.
    for (let run = 0; run < 14; run += 1) {
      await runWith(
        server,
        { project: 'shop', framework: 'vitest' },
        names.map((testCase, n) =>
          result({ testCase, status: run >= 1 && run <= n + 1 ? 'failed' : 'passed' }),
        ),
      );
    }

    const overview = projectSection((await page(server, '/flaky')).text, 'shop');
    const own = projectSection((await page(server, '/flaky?project=shop')).text, 'shop');

    expect(lists(overview).flaky).toEqual(names.slice(2).reverse());
    expect(overview).toContain(
      '<p class="more"><a href="/flaky?project=shop">2 more flaky tests in shop</a></p>',
    );
    expect(lists(own).flaky).toEqual([...names].reverse());
    expect(own).not.toContain('class="more"');
  });

  it('with commit tags, lists apart the tests one commit both passed and failed and those failing since a commit, each linked to its runs', async () => {
    const server = await startServer();
    const sha = (n: number) => `${n}`.repeat(40);
    const ci = (n: number, ...more: string[]) => ({
      project: 'shop',
      framework: 'vitest',
      tags: ['ci:github', 'branch:main', `commit:${sha(n)}`, ...more],
    });
    const passedOn1 = await runWith(server, ci(1), [
      result({ testCase: 'retried' }),
      result({ testCase: 'broken' }),
    ]);
    // A developer's run without a commit: left out, whatever it holds.
    await runWith(server, { project: 'shop', framework: 'vitest' }, [
      result({ testCase: 'stable', status: 'failed' }),
    ]);
    const failedOn2 = await runWith(server, ci(2, 'shard:1/2'), [
      result({ testCase: 'retried', status: 'failed' }),
      result({ testCase: 'broken', status: 'failed' }),
    ]);
    const retriedOn2 = await runWith(server, ci(2, 'shard:1/2'), [
      result({ testCase: 'retried' }),
      result({ testCase: 'broken', status: 'failed' }),
    ]);
    await runWith(server, ci(3), [
      result({ testCase: 'broken', status: 'failed' }),
      result({ testCase: 'stable' }),
    ]);

    const shop = projectSection((await page(server, '/flaky?project=shop')).text, 'shop');

    expect(shop).toMatch(/^data-project="shop" data-rule="same-commit">/);
    expect(shop).toContain(
      'Judged by commit: 4 of these runs carried a commit tag; 1 without one was left out.',
    );
    expect(lists(shop)).toEqual({ flaky: ['retried'], newlyFailing: ['broken'] });
    expect(shop).toMatch(
      new RegExp(
        `data-commit="${sha(2)}"><span>commit <code title="${sha(2)}">2222222</code>:</span><a href="/runs/${retriedOn2}">passed [^<]*</a><a href="/runs/${failedOn2}">failed `,
      ),
    );
    expect(shop).toContain(`<li class="card new-failure" data-commit="${sha(2)}" data-branch="main">`);
    expect(shop).toContain('failing on <span class="branch name">main</span> since commit');
    expect(shop).toMatch(
      new RegExp(`<a class="first-failing" href="/runs/${failedOn2}">first failing run \\(`),
    );
    expect(shop).toMatch(new RegExp(`<a class="last-passing" href="/runs/${passedOn1}">last passed \\(`));
    expect(shop).toContain('failed in 3 runs on 2 commits');
    // Counted over the 4 runs with a commit: the developer's run is not one of them.
    expect(shop).toContain(
      '<span class="count failed">failed 1</span> · <span class="count passed">passed 2</span> of 4 runs',
    );
  });
});

describe.each(storeEngines())('every page on $name', (engine) => {
  const startServer = serverOn(engine);
  it('escapes everything a client sent and carries no script', async () => {
    const server = await startServer();
    const hostile = '<script>alert(1)</script>"onmouseover=alert(1) x="&';
    const runId = await runWith(server, { project: hostile, framework: hostile, tags: [hostile] }, [
      result({ testSuite: hostile, testCase: hostile, status: 'failed' }),
      result({ testSuite: hostile, testCase: hostile }),
    ]);
    // Two runs on one hostile commit, one passed and one failed: the flaky page shows the commit.
    for (const status of ['passed', 'failed']) {
      await runWith(server, { project: hostile, framework: hostile, tags: [`commit:${hostile}`] }, [
        result({ testSuite: hostile, testCase: hostile, status }),
      ]);
    }
    const escaped = '&lt;script&gt;alert(1)&lt;/script&gt;&quot;onmouseover=alert(1) x=&quot;&amp;';
    const query = new URLSearchParams({ project: hostile, suite: hostile, test: hostile });

    for (const path of [
      '/',
      `/?project=${encodeURIComponent(hostile)}`,
      `/runs/${runId}?q=${encodeURIComponent(hostile)}`,
      `/test?${query}`,
      '/flaky',
      `/runs/${encodeURIComponent(hostile)}`,
    ]) {
      const answer = await page(server, path);
      expect(answer.text, path).not.toContain('<script');
      expect(answer.text, path).not.toContain('"onmouseover');
      expect(answer.text, path).toContain(escaped);
    }
    const flaky = (await page(server, '/flaky')).text;
    expect(flaky).toContain(`data-commit="${escaped}"`);
    expect(flaky).toContain(`<code title="${escaped}">${escaped}</code>`);
  });
});
