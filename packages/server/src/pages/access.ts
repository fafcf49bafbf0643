import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';
import type { KeyRing } from '../keys.js';
import { isApiRequest, pathOf } from '../paths.js';
import { html } from './html.js';
import { layout } from './layout.js';
import { isCrossSitePost, SignInAttempts } from './sign-in-attempts.js';

// Who may look at the pages. Open pages are fine on loopback, where only this machine can reach
// them; a server that listens beyond it asks for a key, given once on a sign-in page that sets a
// cookie. Why a cookie and not basic auth:
// docs/design/server-pages.md#a-sign-in-page-and-a-cookie-not-basic-auth.

/** 'open': anyone who reaches the port sees the pages; 'key': a read key or an API key is needed. */
export type PageAccess = 'open' | 'key';

export const LOGIN_PATH = '/login';
export const LOGOUT_PATH = '/logout';
export const SESSION_COOKIE = 'testrun_session';
/** How long a sign-in lasts. A changed or removed key ends its sessions sooner. */
export const SESSION_SECONDS = 30 * 24 * 60 * 60;

const htmlType = 'text/html; charset=utf-8';

/**
 * Whether a host name or address only this machine can reach: 127.0.0.0/8, ::1 and
 * `localhost`. `0.0.0.0`, `::` and every other name listen beyond it.
 */
export function isLoopbackHost(host: string): boolean {
  const name = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  if (name === 'localhost' || name === '::1' || name === '0:0:0:0:0:0:0:1') return true;
  const v4 = name.replace(/^::ffff:/, '');
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/** The pages ask for a key when the server listens beyond loopback or has read keys of its own. */
export function defaultPageAccess(host: string, readKeys: readonly string[]): PageAccess {
  return isLoopbackHost(host) && readKeys.length === 0 ? 'open' : 'key';
}

/**
 * A session cookie's value: `v1.<expiry>.<HMAC-SHA256 of the expiry under the key>`. It
 * names no key and holds none, the server keeps nothing, and a session made with a key
 * ends when that key is no longer accepted.
 */
export function sessionToken(key: string, expiresAt: number): string {
  return `v1.${expiresAt}.${signature(key, expiresAt).toString('base64url')}`;
}

/** Whether a cookie value is a session made with one of the keys and not yet expired. */
export function isValidSession(token: string, keys: readonly string[], nowSeconds: number): boolean {
  const match = /^v1\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return false;
  const expiresAt = Number(match[1]);
  if (expiresAt <= nowSeconds) return false;
  const given = Buffer.from(match[2] as string, 'base64url');
  let valid = false;
  for (const key of keys) valid = timingSafeEqual(given, signature(key, expiresAt)) || valid;
  return valid;
}

function signature(key: string, expiresAt: number): Buffer {
  return createHmac('sha256', key).update(`testrun pages session ${expiresAt}`).digest();
}

export interface PageAccessOptions {
  access: PageAccess;
  /** Read keys and API keys: either opens the pages. */
  keys: KeyRing;
  /** The server serves HTTPS itself: the cookie is always Secure. */
  https: boolean;
}

/**
 * With access 'key': every request that is not for the API or the sign-in page needs a
 * session cookie or `Authorization: Bearer <key>`; a GET without either is sent to the
 * sign-in page, anything else is a 401. With either access, the sign-in page is there: a
 * change made on a page (a quarantine) needs a session made with the API key, on open pages too.
 */
export function registerPageAccess(app: FastifyInstance, { access, keys, https }: PageAccessOptions): void {
  const attempts = new SignInAttempts();

  if (access === 'key') {
    app.addHook('onRequest', async (request, reply) => {
      if (isApiRequest(request.routeOptions.url, request.url)) return;
      const path = pathOf(request.url);
      if (path === LOGIN_PATH || path === LOGOUT_PATH) return;
      if (hasCredential(request, keys)) {
        // What a key opened is for this browser only, never for a shared cache on the way.
        reply.header('cache-control', 'private');
        return;
      }
      if (request.method === 'GET' || request.method === 'HEAD') {
        return reply.redirect(`${LOGIN_PATH}?next=${encodeURIComponent(request.url)}`, 303);
      }
      throw new ApiError(401, 'unauthorized', `these pages need a key: sign in at ${LOGIN_PATH}`);
    });
  }

  app.get<{ Querystring: { next?: string } }>(LOGIN_PATH, async (request, reply) =>
    sendLoginPage(reply, 200, safeNext(request.query.next)),
  );

  app.get(LOGOUT_PATH, async (_request, reply) => {
    const content = html`<h1>Sign out</h1>
<p>Signing out removes this browser's session; the key stays valid.</p>
<form class="logout" method="post" action="${LOGOUT_PATH}"><button type="submit">Sign out</button></form>`;
    return reply.type(htmlType).send(layout('Sign out', content));
  });

  app.register(async (scope) => {
    // A form's body: the only place this server reads anything but JSON, and only here.
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 4096 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    // Read as unknown: a JSON body reaches here too, with fields of any type.
    scope.post<{ Body: Record<string, unknown> | null }>(LOGIN_PATH, async (request, reply) => {
      const body = request.body ?? {};
      const next = safeNext(typeof body.next === 'string' ? body.next : undefined);
      if (isCrossSitePost(request.headers)) {
        return sendLoginPage(
          reply,
          403,
          next,
          "Sign in from this server's own page: another site sent this form.",
        );
      }
      const waitMs = attempts.waitFor(request.ip);
      if (waitMs > 0) {
        const seconds = Math.ceil(waitMs / 1000);
        reply.header('retry-after', String(seconds));
        return sendLoginPage(
          reply,
          429,
          next,
          `Too many wrong keys from this address: try again in ${seconds} s.`,
        );
      }
      const key = typeof body.key === 'string' ? body.key : '';
      if (key === '' || !keys.has(key)) {
        attempts.recordWrongKey(request.ip);
        return sendLoginPage(reply, 401, next, 'That key is not accepted by this server.');
      }
      attempts.recordSignIn(request.ip);
      const expiresAt = Math.floor(Date.now() / 1000) + SESSION_SECONDS;
      return reply
        .header(
          'set-cookie',
          `${SESSION_COOKIE}=${sessionToken(key, expiresAt)}; Path=/; Max-Age=${SESSION_SECONDS}; HttpOnly; SameSite=Strict${secureFlag(https, request)}`,
        )
        .redirect(next, 303);
    });
    scope.post(LOGOUT_PATH, async (request, reply) =>
      reply
        .header(
          'set-cookie',
          `${SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict${secureFlag(https, request)}`,
        )
        .redirect(LOGIN_PATH, 303),
    );
  });
}

/**
 * Which key the request's credential (a session cookie, or `Authorization: Bearer`) was made
 * with: the API key (`write`: it may change what the pages change), a read key (`read`), or
 * none. A session names no key: it is checked against each, the write keys first.
 */
export function pageCredential(
  request: Pick<FastifyRequest, 'headers'>,
  keys: { write: KeyRing; read: KeyRing },
): 'write' | 'read' | undefined {
  if (hasCredential(request, keys.write)) return 'write';
  return hasCredential(request, keys.read) ? 'read' : undefined;
}

function hasCredential(request: Pick<FastifyRequest, 'headers'>, keys: KeyRing): boolean {
  const bearer = /^Bearer ([^\s]+)$/i.exec(request.headers.authorization ?? '');
  if (bearer && keys.has(bearer[1] as string)) return true;
  const token = cookieValue(request.headers.cookie, SESSION_COOKIE);
  return token !== undefined && isValidSession(token, keys.keys, Math.floor(Date.now() / 1000));
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const separator = part.indexOf('=');
    if (separator !== -1 && part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}

/** `; Secure` when the browser reached us over HTTPS, ours or a proxy's. */
function secureFlag(https: boolean, request: FastifyRequest): string {
  return https || forwardedHttps(request) ? '; Secure' : '';
}

/** A proxy that ends TLS says so; a client that lies only gets a cookie it will not send back. */
function forwardedHttps(request: FastifyRequest): boolean {
  const proto = request.headers['x-forwarded-proto'];
  const first = (Array.isArray(proto) ? proto[0] : proto)?.split(',')[0]?.trim().toLowerCase();
  return first === 'https';
}

/** Where to go after signing in: a path on this server, never another site (`//evil`, `/\evil`). */
export function safeNext(next: string | undefined): string {
  if (typeof next !== 'string' || !next.startsWith('/') || /^\/[/\\]/.test(next)) return '/';
  try {
    const url = new URL(next, 'http://this.server');
    return url.origin === 'http://this.server' ? `${url.pathname}${url.search}` : '/';
  } catch {
    return '/';
  }
}

function sendLoginPage(reply: FastifyReply, status: number, next: string, problem?: string): FastifyReply {
  const content = html`<h1>Sign in</h1>
<p>This testrun server shows its runs to people with a key: its read key (<code>--read-key</code> or <code>TESTRUN_READ_KEY</code> of <code>testrun serve</code>) or its API key. Ask whoever runs it. Changing what the pages change (a quarantine) needs the API key.</p>
${problem ? html`<p class="problem" role="alert"><strong>${problem}</strong></p>` : ''}
<form class="login" method="post" action="${LOGIN_PATH}"><input type="hidden" name="next" value="${next}"><label>Key<input type="password" name="key" autocomplete="current-password" required autofocus></label><button type="submit">Sign in</button></form>
<p class="muted">Signing in sets a cookie for ${SESSION_SECONDS / 86400} days that holds no key; <a href="${LOGOUT_PATH}">sign out</a> ends it.</p>`;
  return reply.code(status).type(htmlType).send(layout('Sign in', content));
}
