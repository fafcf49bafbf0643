import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  checkQuarantine,
  DEFAULT_QUARANTINE_DAYS,
  MAX_QUARANTINE_DAYS,
  refuseWhatIsNoTest,
  writeLift,
  writeQuarantine,
} from '../api/quarantine.js';
import { ApiError } from '../errors.js';
import type { KeyRing } from '../keys.js';
import { quarantineHealth } from '../ledger/quarantine-health.js';
import type { SqlStore } from '../ledger/sql-store.js';
import { paths, quarantineChangePath, quarantinePagePath } from '../paths.js';
import { LOGIN_PATH, pageCredential } from './access.js';
import {
  type ChangeForm,
  renderChangeForm,
  renderConfirmation,
  renderQuarantinePage,
  renderRefusal,
} from './quarantine-page.js';
import { isCrossSitePost } from './sign-in-attempts.js';

// The quarantine pages (docs/design/quarantine.md). Reading them takes what any page takes; changing a
// quarantine takes a session made with the API key (or the key as a bearer): a read key's is
// refused, 403, as the API refuses it. Every change is two POSTs, the form and its
// confirmation, each refused when another site sent it (Origin, Sec-Fetch-Site: as the sign-in
// form, docs/design/server-pages.md#who-may-look), on top of the session cookie's SameSite=Strict.

const htmlType = 'text/html; charset=utf-8';
/** Changes listed on a project's page; older ones through the API. */
const CHANGES_SHOWN = 50;
/** A form's body at most: two test names of the longest the API takes, and the rest. */
const FORM_BYTES = 64 * 1024;

type Query = Record<string, string | string[] | undefined>;

export function registerQuarantinePages(
  app: FastifyInstance,
  store: SqlStore,
  keys: { write: KeyRing; read: KeyRing },
): void {
  const send = (reply: FastifyReply, page: string, status = 200) =>
    reply.code(status).type(htmlType).send(page);

  app.get<{ Querystring: Query }>(paths.quarantinePage, async (request, reply) => {
    const project = first(request.query.project)?.trim() || undefined;
    const projects = await store.quarantiningProjects();
    if (project === undefined) {
      return send(
        reply,
        renderQuarantinePage({
          project,
          projects,
          quarantines: [],
          health: undefined,
          changes: [],
          moreChanges: false,
          now: Date.now(),
        }),
      );
    }
    const quarantines = await store.quarantines(project);
    const health = await quarantineHealth(store.db, project, quarantines);
    const { changes, more } = await store.quarantineChanges(project, { limit: CHANGES_SHOWN });
    return send(
      reply,
      renderQuarantinePage({
        project,
        projects,
        quarantines,
        health,
        changes,
        moreChanges: more,
        now: Date.now(),
      }),
    );
  });

  app.get<{ Querystring: Query }>(paths.quarantineChange, async (request, reply) => {
    const form = formOf(request.query);
    if (!form) return send(reply, whichTest(), 400);
    const current = await store.quarantineOf(form.project, form.testSuite, form.testCase);
    if (form.action === 'add' && current && current.state !== 'lifted') {
      form.reason = current.reason;
      form.owner = current.owner ?? '';
    }
    return send(reply, renderChangeForm(form, current, pageCredential(request, keys), signInPath(form)));
  });

  app.register(async (scope) => {
    // A form's body: read here and at the sign-in only (pages/access.ts); the rest is JSON.
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_BYTES },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    scope.post<{ Body: Record<string, unknown> | null }>(paths.quarantineChange, async (request, reply) => {
      if (isCrossSitePost(request.headers)) {
        return send(
          reply,
          renderRefusal(
            'Refused',
            "Change a quarantine from this server's own page: another site sent this form.",
          ),
          403,
        );
      }
      const body = Object.fromEntries(
        Object.entries(request.body ?? {}).filter(([, value]) => typeof value === 'string'),
      ) as Query;
      const form = formOf(body);
      if (!form) return send(reply, whichTest(), 400);
      const credential = pageCredential(request, keys);
      if (credential !== 'write') {
        const message =
          credential === 'read'
            ? 'A read key reads the pages and changes nothing: changing a quarantine needs the API key.'
            : 'Changing a quarantine needs the API key.';
        return send(
          reply,
          renderRefusal('Not allowed', message, signInPath(form)),
          credential === 'read' ? 403 : 401,
        );
      }
      const current = await store.quarantineOf(form.project, form.testSuite, form.testCase);
      const again = (problem: string, status = 400) =>
        send(reply, renderChangeForm(form, current, credential, signInPath(form), problem), status);
      if (form.reason.trim() === '') return again('Say why: a sentence, a ticket.');
      if (form.by.trim() === '') return again('Say who you are: every change is kept with who made it.');
      const days = Number(form.days);
      if (form.action === 'add' && !(Number.isInteger(days) && days >= 1 && days <= MAX_QUARANTINE_DAYS)) {
        return again(`The days must be a whole number from 1 to ${MAX_QUARANTINE_DAYS}.`);
      }
      const request_ = {
        project: form.project,
        testSuite: form.testSuite,
        testCase: form.testCase,
        reason: form.reason,
        owner: form.owner,
        days,
      };
      let expiresAt: string | undefined;
      try {
        if (form.action === 'add') expiresAt = checkQuarantine(request_, Date.now()).expiresAt;
        else refuseWhatIsNoTest(request_);
      } catch (error) {
        if (error instanceof ApiError) return again(error.message);
        throw error;
      }
      if (body.confirm !== 'yes') return send(reply, renderConfirmation(form, expiresAt));
      try {
        const done = await store.write((tx) =>
          form.action === 'add'
            ? writeQuarantine(tx, request_, 'page', form.by.trim())
            : writeLift(tx, request_, 'page', form.by.trim()),
        );
        return reply.redirect(
          `${quarantinePagePath(form.project)}#q-${done.quarantine.key.slice(0, 12)}`,
          303,
        );
      } catch (error) {
        if (error instanceof ApiError) return again(error.message, error.status);
        throw error;
      }
    });
  });
}

/** The form's fields from a query or a body; undefined when it names no test. */
function formOf(fields: Query): ChangeForm | undefined {
  const action = first(fields.action);
  const project = first(fields.project);
  const testSuite = first(fields.suite);
  const testCase = first(fields.test);
  if ((action !== 'add' && action !== 'lift') || !project || !testSuite || !testCase) return undefined;
  return {
    action,
    project,
    testSuite,
    testCase,
    reason: first(fields.reason) ?? '',
    owner: first(fields.owner) ?? '',
    days: first(fields.days) ?? String(DEFAULT_QUARANTINE_DAYS),
    by: first(fields.by) ?? '',
  };
}

function signInPath(form: ChangeForm): string {
  return `${LOGIN_PATH}?next=${encodeURIComponent(quarantineChangePath(form.action, form))}`;
}

function whichTest(): string {
  return renderRefusal(
    'Which test?',
    'A change names what to do (action=add or lift) and the test: /quarantine/change?action=add&project=…&suite=…&test=…. Every test page links here.',
  );
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
