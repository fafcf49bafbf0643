import { storeEngines } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';
import { defaultBranchOf, LIFT_AFTER_PASSES } from '../../src/ledger/quarantine-health.js';
import { type Answer, patch, post, result, serverOn, startServer } from '../client.js';

// The quarantine pages (docs/design/quarantine.md) over real HTTP: a project's quarantined tests with
// how each is doing, the runs, run and test pages reading "passed — 1 quarantined failure" with
// the failure still listed, and a change on a page: signed in with the API key, confirmed, kept
// with who made it; refused to a read key, to no key, and to a form another site sent.

const READ_KEY = 'quarantine-pages-read-key';
const SUITE = 'src/cart.test.ts';
const FLAKY = 'cart > totals > rounds';
const CHANGE = `/quarantine/change?action=add&project=shop&suite=${encodeURIComponent(SUITE)}&test=${encodeURIComponent(FLAKY)}`;

type Server = Parameters<typeof post>[0];

async function page(server: Server, path: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(`${server.url}${path}`, { redirect: 'manual', ...init });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: undefined, text };
}

function form(server: Server, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return page(server, '/quarantine/change', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

async function signedIn(server: Server, key: string): Promise<string> {
  const answer = await page(server, '/login', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ key, next: '/' }).toString(),
  });
  expect(answer.status).toBe(303);
  return (answer.headers.get('set-cookie') ?? '').split(';')[0]!;
}

/** A run of `shop` with the flaky test's result, ended, on `branch`. */
async function runWith(
  server: Server,
  status: 'passed' | 'failed',
  { quarantined = false, end = 'completed', branch = 'main' } = {},
): Promise<string> {
  const created = await post(server, '/api/v1/runs', {
    project: 'shop',
    framework: 'vitest',
    tags: [`branch:${branch}`],
  });
  const runId = (created.body as { id: string }).id;
  const flaky = result({
    testCase: FLAKY,
    status,
    ...(status === 'failed' ? { details: { message: 'expected 3 to be 2\n  at x' } } : {}),
    ...(quarantined ? { quarantined: true } : {}),
  });
  await post(server, `/api/v1/runs/${runId}/results`, {
    results: [flaky, result({ testCase: 'cart > adds' })],
  });
  await patch(server, `/api/v1/runs/${runId}`, { status: end });
  return runId;
}

const fields = {
  action: 'add',
  project: 'shop',
  suite: SUITE,
  test: FLAKY,
  reason: 'flaky since #812',
  owner: 'team-cart',
  days: '14',
  by: 'ana',
};

// How each quarantined test is doing is new SQL (ledger/quarantine-health.ts): on both engines.
describe.each(storeEngines())('the quarantine page on $name', (engine) => {
  const startServer = serverOn(engine);

  it("show a project's quarantined test: why, whose, since when, until when, its last failure, the builds it kept green, its passes in a row on the default branch, and every change", async () => {
    const server = await startServer();
    await post(server, '/api/v1/quarantines', {
      project: 'shop',
      testSuite: SUITE,
      testCase: FLAKY,
      reason: 'flaky since #812',
      owner: 'team-cart',
      by: 'ana',
    });
    const failedRun = await runWith(server, 'failed', { quarantined: true });
    await runWith(server, 'failed', { quarantined: true, end: 'failed' });
    for (let i = 0; i < LIFT_AFTER_PASSES; i++) await runWith(server, 'passed');
    await runWith(server, 'failed', { branch: 'feature/x' });

    const shown = await page(server, '/quarantine?project=shop');
    expect(shown.status).toBe(200);
    const card = /<li class="card quarantine"[\s\S]*?<\/li>/.exec(shown.text)?.[0] ?? '';
    expect(card).toContain('data-state="active"');
    expect(card).toContain(FLAKY.replace(/>/g, '&gt;'));
    expect(card).toContain('flaky since #812');
    expect(card).toContain('owner <span class="name">team-cart</span>');
    expect(card).toMatch(/until \d{4}-\d{2}-\d{2} <span class="muted">\(in 30 days\)/);
    expect(card).toContain('by <span class="name">ana</span>');
    // The newest failure is the feature branch's; builds kept green are completed runs with its marked failure.
    expect(card).toMatch(/last failed in <a href="\/runs\/[^"]+">a run/);
    expect(card).toContain(': <span class="name">expected 3 to be 2</span>');
    expect(card).toContain('kept <strong>1</strong> build green');
    expect(card).toContain(`passed its last ${LIFT_AFTER_PASSES} runs on <span class="name">main</span>`);
    expect(card).toContain('lift its quarantine?');
    expect(shown.text).toMatch(
      /<tr class="change" data-action="quarantined">[\s\S]*?ana[\s\S]*?\(API\)[\s\S]*?flaky since #812/,
    );
    expect(failedRun).toBeDefined();

    // The flaky page says it is quarantined, and links to the project's quarantine.
    const flaky = await page(server, '/flaky?project=shop');
    const flakyCard = /<li class="card flaky"[\s\S]*?<\/li>/.exec(flaky.text)?.[0] ?? '';
    expect(flakyCard).toMatch(
      /<a class="quarantine-state active" href="\/quarantine\?project=shop">quarantined until \d{4}-\d{2}-\d{2}<\/a>/,
    );

    const all = await page(server, '/quarantine');
    expect(all.text).toMatch(
      /<a class="name" href="\/quarantine\?project=shop">shop<\/a> <span class="muted">· 1 test<\/span>/,
    );
  });
});

// What follows reads and writes what the store tests hold on both engines
// (packages/server/test/quarantine.test.ts): the pages' own work, on one.
describe('the quarantine pages', () => {
  it('read "passed — 1 quarantined failure" on the runs, run and test pages, the failure still listed with why', async () => {
    const server = await startServer();
    await post(server, '/api/v1/quarantines', {
      project: 'shop',
      testSuite: SUITE,
      testCase: FLAKY,
      reason: 'flaky',
    });
    const runId = await runWith(server, 'failed', { quarantined: true });
    const runs = await page(server, '/');
    expect(runs.text).toContain('passed — 1 quarantined failure<span class="tip"');
    expect(runs.text).toContain('✗ 1 failed test, all quarantined');
    const run = await page(server, `/runs/${runId}`);
    expect(run.text).toContain('passed — 1 quarantined failure');
    const failedRow =
      /<tr class="test" id="test-[^"]+" data-status="failed" data-quarantined>[\s\S]*?<\/tr>/.exec(
        run.text,
      )?.[0];
    expect(failedRow).toContain('<span class="quarantined-mark"');
    expect(failedRow).toContain('expected 3 to be 2');
    const test = await page(
      server,
      `/test?project=shop&suite=${encodeURIComponent(SUITE)}&test=${encodeURIComponent(FLAKY)}`,
    );
    expect(test.text).toMatch(
      /<p id="quarantine-state" data-state="active">[\s\S]*?quarantined<\/span> until/,
    );
    expect(test.text).toMatch(/<tr class="outcome"[^>]*data-status="failed">[\s\S]*?quarantined-mark/);
  });

  it('change a quarantine only signed in with the API key, after a confirmation: kept with who made it, on a page', async () => {
    const server = await startServer({ readKeys: [READ_KEY], pageAccess: 'open' });
    // The flaky page and the test's page offer the form for a test not quarantined.
    await runWith(server, 'failed');
    await runWith(server, 'passed');
    const offered =
      `/quarantine/change?${new URLSearchParams({ action: 'add', project: 'shop', suite: SUITE, test: FLAKY })}`.replace(
        /&/g,
        '&amp;',
      );
    const offer = (await page(server, '/flaky?project=shop')).text;
    expect(offer).toContain(`<a class="quarantine-link" href="${offered}">Quarantine…</a>`);
    const testPage = await page(
      server,
      `/test?project=shop&suite=${encodeURIComponent(SUITE)}&test=${encodeURIComponent(FLAKY)}`,
    );
    expect(testPage.text).toContain(
      `<p id="quarantine-state">Not quarantined. <a href="${offered}">Quarantine it…</a></p>`,
    );
    // No key: the form is not offered, and a POST is refused.
    const open = await page(server, CHANGE);
    expect(open.status).toBe(200);
    expect(open.text).toContain('Changing a quarantine needs the API key.');
    expect(open.text).not.toContain('<form class="quarantine-change"');
    expect((await form(server, fields)).status).toBe(401);
    // A read key reads and changes nothing.
    const reader = await signedIn(server, READ_KEY);
    const refused = await form(server, { ...fields, confirm: 'yes' }, { cookie: reader });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('A read key reads the pages and changes nothing');
    // The API key: the form, then what will happen, then the change.
    const writer = await signedIn(server, 'server-test-key');
    expect((await page(server, CHANGE, { headers: { cookie: writer } })).text).toContain(
      '<form class="quarantine-change"',
    );
    const review = await form(server, fields, { cookie: writer });
    expect(review.status).toBe(200);
    expect(review.text).toMatch(
      /Quarantine <span class="name"><strong>cart &gt; totals &gt; rounds<\/strong><\/span>[\s\S]*?until \d{4}-\d{2}-\d{2}\?/,
    );
    expect(review.text).toContain(
      '<input type="hidden" name="confirm" value="yes"><button type="submit">Quarantine it</button>',
    );
    expect(await server.store.quarantines('shop')).toEqual([]);
    const done = await form(server, { ...fields, confirm: 'yes' }, { cookie: writer });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toMatch(/^\/quarantine\?project=shop#q-[0-9a-f]{12}$/);
    const [set] = await server.store.quarantines('shop');
    expect(set).toMatchObject({
      testCase: FLAKY,
      reason: 'flaky since #812',
      owner: 'team-cart',
      by: 'ana',
      state: 'active',
    });
    expect(Date.parse(set!.expiresAt) - Date.parse(set!.since)).toBe(14 * 86_400_000);
    // Lifted the same way.
    const lift = {
      action: 'lift',
      project: 'shop',
      suite: SUITE,
      test: FLAKY,
      reason: 'fixed in #830',
      by: 'bo',
    };
    expect((await form(server, lift, { cookie: writer })).text).toContain(
      '<button type="submit">Lift it</button>',
    );
    expect((await form(server, { ...lift, confirm: 'yes' }, { cookie: writer })).status).toBe(303);
    expect(await server.store.quarantines('shop')).toEqual([]);
    const { changes } = await server.store.quarantineChanges('shop', { limit: 10 });
    expect(changes.map((change) => [change.action, change.by, change.via, change.reason])).toEqual([
      ['lifted', 'bo', 'page', 'fixed in #830'],
      ['quarantined', 'ana', 'page', 'flaky since #812'],
    ]);
  });

  it('refuse a change another site sent, and say what is wrong with a form, changing nothing', async () => {
    const server = await startServer();
    const writer = await signedIn(server, 'server-test-key');
    const crossSite = await form(
      server,
      { ...fields, confirm: 'yes' },
      { cookie: writer, origin: 'https://evil.example' },
    );
    expect(crossSite.status).toBe(403);
    expect(crossSite.text).toContain('another site sent this form');
    const sameSiteLabel = await form(
      server,
      { ...fields, confirm: 'yes' },
      { cookie: writer, 'sec-fetch-site': 'cross-site' },
    );
    expect(sameSiteLabel.status).toBe(403);
    const noReason = await form(server, { ...fields, reason: ' ' }, { cookie: writer });
    expect(noReason.status).toBe(400);
    expect(noReason.text).toContain('Say why: a sentence, a ticket.');
    const tooLong = await form(server, { ...fields, days: '400' }, { cookie: writer });
    expect(tooLong.text).toContain('The days must be a whole number from 1 to 365.');
    const notATest = await form(
      server,
      { ...fields, test: '(file failed to run)', confirm: 'yes' },
      { cookie: writer },
    );
    expect(notATest.status).toBe(400);
    expect(notATest.text).toContain('is a file that failed outside its tests, not a test');
    expect(await server.store.quarantines('shop')).toEqual([]);
  });
});

describe('the default branch a passing streak is counted on', () => {
  it('is main, else master, else the branch most runs name, else none', () => {
    expect(defaultBranchOf(['x', 'main', 'master'])).toBe('main');
    expect(defaultBranchOf(['x', 'master', 'x'])).toBe('master');
    expect(defaultBranchOf(['a', 'b', 'b', undefined])).toBe('b');
    expect(defaultBranchOf([undefined, undefined])).toBeUndefined();
  });
});
