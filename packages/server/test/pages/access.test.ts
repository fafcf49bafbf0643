import { describe, expect, it } from 'vitest';
import {
  defaultPageAccess,
  isLoopbackHost,
  isValidSession,
  safeNext,
  sessionToken,
} from '../../src/pages/access.js';
import {
  counted,
  MAX_ADDRESSES,
  MAX_WRONG_KEYS,
  SignInAttempts,
  WINDOW_MS,
} from '../../src/pages/sign-in-attempts.js';
import { type Answer, createRun, get, KEY, patch, post, result, startServer } from '../client.js';

// Who may look at the pages: the rule (pure), then the server enforcing it over real HTTP.
// The non-loopback case is forced with `pageAccess: 'key'` or given read keys, so no test
// listens beyond 127.0.0.1.

const READ_KEY = 'read-key-3b9e71';
const PAGES = ['/', '/flaky', '/test?project=shop&suite=s&test=t', '/runs/no-such-run', '/no-such-page'];

type Server = Awaited<ReturnType<typeof startServer>>;

function getPage(server: Server, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return sendRaw(server, path, { headers });
}

async function sendRaw(server: Server, path: string, init: RequestInit): Promise<Answer> {
  const response = await fetch(`${server.url}${path}`, { redirect: 'manual', ...init });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: undefined, text };
}

function signIn(server: Server, key: string, next = '/'): Promise<Answer> {
  return sendRaw(server, '/login', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ key, next }).toString(),
  });
}

/** The `name=value` of a Set-Cookie header, as a browser sends it back. */
function cookieOf(answer: Answer): string {
  const setCookie = answer.headers.get('set-cookie') ?? '';
  return setCookie.split(';')[0] ?? '';
}

describe('which hosts open the pages to anyone', () => {
  it('counts 127.0.0.0/8, ::1 and localhost as loopback, in any spelling', () => {
    for (const host of [
      '127.0.0.1',
      '127.1.2.3',
      '::1',
      '[::1]',
      'localhost',
      'LOCALHOST',
      '::ffff:127.0.0.1',
    ]) {
      expect(isLoopbackHost(host), host).toBe(true);
    }
  });

  it('counts every other address, including the any-address, as beyond loopback', () => {
    for (const host of [
      '0.0.0.0',
      '::',
      '192.168.1.10',
      '10.0.0.1',
      'ci.example.com',
      '128.0.0.1',
      'localhost.evil',
    ]) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });

  it('asks for a key beyond loopback, or on loopback once read keys are configured', () => {
    expect(defaultPageAccess('127.0.0.1', [])).toBe('open');
    expect(defaultPageAccess('0.0.0.0', [])).toBe('key');
    expect(defaultPageAccess('ci.example.com', [])).toBe('key');
    expect(defaultPageAccess('127.0.0.1', [READ_KEY])).toBe('key');
  });
});

describe('sessions and where sign-in leads', () => {
  it('accepts a session made with an accepted key until it expires, and no other', () => {
    const token = sessionToken(READ_KEY, 2_000);
    expect(token).not.toContain(READ_KEY);
    expect(isValidSession(token, ['other', READ_KEY], 1_999)).toBe(true);
    expect(isValidSession(token, [READ_KEY], 2_000)).toBe(false);
    expect(isValidSession(token, ['other'], 1_000)).toBe(false);
    expect(isValidSession(token.replace('v1.2000.', 'v1.9000.'), [READ_KEY], 1_000)).toBe(false);
    expect(isValidSession('v1.2000.short', [READ_KEY], 1_000)).toBe(false);
  });

  it('goes back only to a path on this server', () => {
    expect(safeNext('/runs/42?q=cart')).toBe('/runs/42?q=cart');
    expect(safeNext('//evil.example/x')).toBe('/');
    expect(safeNext('/\\evil.example')).toBe('/');
    expect(safeNext('https://evil.example/')).toBe('/');
    expect(safeNext(undefined)).toBe('/');
  });
});

describe('wrong keys from one address', () => {
  it('are counted per address within a minute, and forgotten after it or after a sign-in', () => {
    let now = 1_000_000;
    const attempts = new SignInAttempts(() => now);
    for (let count = 0; count < MAX_WRONG_KEYS; count += 1) attempts.recordWrongKey('10.0.0.1');
    expect(attempts.waitFor('10.0.0.1')).toBe(WINDOW_MS);
    expect(attempts.waitFor('10.0.0.2')).toBe(0);
    now += WINDOW_MS / 2;
    expect(attempts.waitFor('10.0.0.1')).toBe(WINDOW_MS / 2);
    now += WINDOW_MS / 2;
    expect(attempts.waitFor('10.0.0.1')).toBe(0);
    for (let count = 0; count < MAX_WRONG_KEYS - 1; count += 1) attempts.recordWrongKey('10.0.0.3');
    attempts.recordSignIn('10.0.0.3');
    attempts.recordWrongKey('10.0.0.3');
    expect(attempts.waitFor('10.0.0.3')).toBe(0);
  });
});

describe('wrong keys from many addresses (a botnet behind a trusted proxy, an IPv6 host)', () => {
  it('keep what is counted bounded, forget the least recently wrong first, and still hold back the busiest', () => {
    let now = 1_000_000;
    const attempts = new SignInAttempts(() => now);
    // Three times as many addresses as are kept, all within one window (the sweep of every
    // address on every wrong key made this take minutes).
    for (let i = 0; i < 3 * MAX_ADDRESSES; i += 1) {
      attempts.recordWrongKey(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
      if (i % 1000 === 0) now += 1;
    }
    expect(attempts.addresses).toBe(MAX_ADDRESSES);
    for (let count = 0; count < MAX_WRONG_KEYS; count += 1) attempts.recordWrongKey('203.0.113.7');
    expect(attempts.waitFor('203.0.113.7')).toBe(WINDOW_MS);
    // Past the window, nothing is kept.
    now += WINDOW_MS + 1;
    attempts.recordWrongKey('198.51.100.2');
    expect(attempts.addresses).toBe(1);
  });

  it('count an IPv6 address by its /64, and an IPv4-mapped one as the IPv4 address', () => {
    expect(counted('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(counted('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(counted('2001:db8::7')).toBe('2001:db8:0:0::/64');
    expect(counted('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(counted('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(counted('203.0.113.7')).toBe('203.0.113.7');
    const attempts = new SignInAttempts();
    for (let host = 0; host < MAX_WRONG_KEYS; host += 1) attempts.recordWrongKey(`2001:db8:1:2::${host + 1}`);
    expect(attempts.waitFor('2001:db8:1:2:ffff::9')).toBeGreaterThan(0);
    expect(attempts.waitFor('2001:db8:1:3::1')).toBe(0);
  });
});

describe('pages that ask for a key', () => {
  it('send every page to the sign-in page without a credential', async () => {
    const server = await startServer({ pageAccess: 'key' });
    for (const path of PAGES) {
      const answer = await getPage(server, path);
      expect(answer.status, path).toBe(303);
      expect(answer.headers.get('location'), path).toBe(`/login?next=${encodeURIComponent(path)}`);
      expect(answer.text, path).not.toContain('<main>');
    }
    const login = await getPage(server, '/login?next=%2Fflaky');
    expect(login.status).toBe(200);
    expect(login.text).toContain('<input type="password" name="key"');
    expect(login.text).toContain('<input type="hidden" name="next" value="/flaky">');
  });

  it('sign in with the read key: an HttpOnly, SameSite=Strict cookie that holds no key and opens every page', async () => {
    const server = await startServer({ readKeys: [READ_KEY] });
    const runId = await createRun(server);

    const signedIn = await signIn(server, READ_KEY, `/runs/${runId}`);
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe(`/runs/${runId}`);
    const setCookie = signedIn.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(
      /^testrun_session=v1\.\d+\.[\w-]+; Path=\/; Max-Age=2592000; HttpOnly; SameSite=Strict$/,
    );
    expect(setCookie).not.toContain(READ_KEY);

    for (const path of ['/', '/flaky', `/runs/${runId}`]) {
      const answer = await getPage(server, path, { cookie: cookieOf(signedIn) });
      expect(answer.status, path).toBe(200);
      expect(answer.text, path).toContain('<main>');
    }
  });

  it('marks the cookie Secure when the server serves HTTPS behind a proxy that says so', async () => {
    const server = await startServer({ pageAccess: 'key' });
    const answer = await sendRaw(server, '/login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-proto': 'https' },
      body: `key=${KEY}`,
    });
    expect(answer.headers.get('set-cookie')).toMatch(/; HttpOnly; SameSite=Strict; Secure$/);
  });

  it('accept the API key too, as a sign-in or a bearer header', async () => {
    const server = await startServer({ readKeys: [READ_KEY] });
    const signedIn = await signIn(server, KEY);
    expect(signedIn.status).toBe(303);
    expect((await getPage(server, '/', { cookie: cookieOf(signedIn) })).status).toBe(200);
    expect((await getPage(server, '/', { authorization: `Bearer ${READ_KEY}` })).status).toBe(200);
    expect((await getPage(server, '/', { authorization: `Bearer ${KEY}` })).status).toBe(200);
  });

  it('refuse a wrong key without repeating it, and a made-up or foreign cookie', async () => {
    const server = await startServer({ readKeys: [READ_KEY] });
    const wrong = 'trk_guessed_0123456789';
    const refused = await signIn(server, wrong);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('set-cookie')).toBeNull();
    expect(refused.text).toContain('That key is not accepted by this server.');
    expect(refused.text).not.toContain(wrong);

    const other = await startServer({ readKeys: ['another-servers-key'] });
    const foreign = cookieOf(await signIn(other, 'another-servers-key'));
    const forged = `testrun_session=${sessionToken(wrong, Math.floor(Date.now() / 1000) + 60)}`;
    for (const cookie of [foreign, forged, 'testrun_session=anything']) {
      expect((await getPage(server, '/', { cookie })).status, cookie).toBe(303);
    }
    expect((await getPage(server, '/', { authorization: `Bearer ${wrong}` })).status).toBe(303);
    const notAString = await post(server, '/login', { key: 42, next: ['/'] }, { key: null });
    expect(notAString.status).toBe(401);
  });

  it('sign out: the cookie is cleared, and the pages are kept from shared caches while signed in', async () => {
    const server = await startServer({ readKeys: [READ_KEY] });
    const cookie = cookieOf(await signIn(server, READ_KEY));
    expect((await getPage(server, '/', { cookie })).headers.get('cache-control')).toBe('private');

    expect((await getPage(server, '/logout')).text).toContain(
      '<form class="logout" method="post" action="/logout">',
    );
    const signedOut = await sendRaw(server, '/logout', {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(signedOut.status).toBe(303);
    expect(signedOut.headers.get('location')).toBe('/login');
    expect(signedOut.headers.get('set-cookie')).toBe(
      'testrun_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict',
    );
  });

  it('make an address that sent ten wrong keys in a minute wait, even with the right one', async () => {
    const server = await startServer({ readKeys: [READ_KEY] });
    for (let attempt = 1; attempt <= MAX_WRONG_KEYS; attempt += 1) {
      expect((await signIn(server, `guess-${attempt}`)).status).toBe(401);
    }
    const waiting = await signIn(server, READ_KEY);
    expect(waiting.status).toBe(429);
    expect(Number(waiting.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(waiting.text).toContain('Too many wrong keys from this address: try again in');
    expect(waiting.headers.get('set-cookie')).toBeNull();
  });

  it('count wrong keys per client behind a trusted proxy (trustProxy), and per proxy without it', async () => {
    const fromClient = (server: Server, client: string, key: string) =>
      sendRaw(server, '/login', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': client },
        body: new URLSearchParams({ key, next: '/' }).toString(),
      });
    const otherClientAfterAFlood = async (server: Server) => {
      for (let attempt = 1; attempt <= MAX_WRONG_KEYS; attempt += 1) {
        expect((await fromClient(server, '203.0.113.7', `guess-${attempt}`)).status).toBe(401);
      }
      expect((await fromClient(server, '203.0.113.7', READ_KEY)).status).toBe(429);
      return (await fromClient(server, '198.51.100.2', READ_KEY)).status;
    };
    const behindProxy = await startServer({ readKeys: [READ_KEY], trustProxy: ['127.0.0.1'] });
    const notTrusted = await startServer({ readKeys: [READ_KEY] });
    expect(await otherClientAfterAFlood(behindProxy)).toBe(303);
    expect(await otherClientAfterAFlood(notTrusted)).toBe(429);
  });

  it('refuse a sign-in form that another site made the browser send', async () => {
    const server = await startServer({ readKeys: [READ_KEY] });
    const host = new URL(server.url).host;
    const crossSite: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of crossSite) {
      const refused = await sendRaw(server, '/login', {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ key: READ_KEY, next: '/' }).toString(),
      });
      expect(refused.status, JSON.stringify(headers)).toBe(403);
      expect(refused.headers.get('set-cookie')).toBeNull();
    }
    const ownPage = await sendRaw(server, '/login', {
      method: 'POST',
      headers: {
        origin: `http://${host}`,
        'sec-fetch-site': 'same-origin',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ key: READ_KEY, next: '/' }).toString(),
    });
    expect(ownPage.status).toBe(303);
  });

  it('stay open on loopback without read keys, as before; the sign-in page is there for changes (a quarantine)', async () => {
    const server = await startServer();
    expect((await getPage(server, '/')).status).toBe(200);
    expect((await getPage(server, '/flaky')).status).toBe(200);
    expect((await getPage(server, '/login')).status).toBe(200);
    expect((await getPage(server, '/logout')).status).toBe(200);
  });
});

describe('the read key and the API', () => {
  it('reads the API with the read key but cannot write with it', async () => {
    const server = await startServer({ readKeys: [READ_KEY] });
    const runId = await createRun(server);
    expect((await get(server, '/api/v1/runs', { key: READ_KEY })).status).toBe(200);
    expect((await get(server, `/api/v1/runs/${runId}/results`, { key: READ_KEY })).status).toBe(200);
    const writes = [
      await post(server, '/api/v1/runs', { project: 'p', framework: 'f' }, { key: READ_KEY }),
      await post(server, `/api/v1/runs/${runId}/results`, { results: [result()] }, { key: READ_KEY }),
      await patch(server, `/api/v1/runs/${runId}`, { status: 'completed' }, { key: READ_KEY }),
    ];
    for (const write of writes) {
      expect(write.status).toBe(403);
      expect(write.body).toEqual({
        error: {
          code: 'read_key_cannot_write',
          message:
            'this is a read key: it reads the API and the pages but writes nothing; send the API key to write',
        },
      });
    }
    expect(await server.store.results(runId)).toEqual([]);
    expect(await server.store.endOf(runId)).toBeUndefined();
    expect(server.requests.slice(-5).map((r) => [r.method, r.authorized])).toEqual([
      ['GET', true],
      ['GET', true],
      ['POST', false],
      ['POST', false],
      ['PATCH', false],
    ]);
  });

  it('keeps the API on bearer keys: a page session opens no API call', async () => {
    const server = await startServer({ readKeys: [READ_KEY] });
    const cookie = cookieOf(await signIn(server, READ_KEY));
    expect((await get(server, '/api/v1/runs', { key: null, headers: { cookie } })).status).toBe(401);
  });
});

describe('security headers', () => {
  const expectHeaders = (answer: Answer, what: string) => {
    const csp = answer.headers.get('content-security-policy') ?? '';
    expect(csp, what).toContain("default-src 'none'");
    expect(csp, what).toContain("frame-ancestors 'none'");
    expect(csp, what).not.toContain('unsafe-inline');
    expect(csp, what).not.toContain('script-src');
    expect(answer.headers.get('x-content-type-options'), what).toBe('nosniff');
    expect(answer.headers.get('x-frame-options'), what).toBe('DENY');
  };

  it('are on every page, open or behind a key, and on the sign-in page and its redirects', async () => {
    const open = await startServer();
    const runId = await createRun(open);
    for (const path of [...PAGES, `/runs/${runId}`]) expectHeaders(await getPage(open, path), path);

    const locked = await startServer({ pageAccess: 'key' });
    for (const path of [...PAGES, '/login']) expectHeaders(await getPage(locked, path), `locked ${path}`);
    expectHeaders(await signIn(locked, 'wrong'), 'refused sign-in');
    expectHeaders(await signIn(locked, KEY), 'sign-in');
  });

  it("allow the pages' one inline stylesheet by its hash", async () => {
    const { createHash } = await import('node:crypto');
    const server = await startServer();
    const answer = await getPage(server, '/');
    const styles = [...answer.text.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1] ?? '');
    expect(styles).toHaveLength(1);
    const hash = createHash('sha256')
      .update(styles[0] ?? '')
      .digest('base64');
    expect(answer.headers.get('content-security-policy')).toContain(`style-src 'sha256-${hash}'`);
  });
});
