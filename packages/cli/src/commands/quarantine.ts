import os from 'node:os';
import { requestService, type SendOutcome, userAgent } from '@testrun/core';
import { resolveCliConfig, TLS_FLAGS } from '../cli-config.js';
import { defineCommand, type Output, UsageError } from '../command.js';

// `testrun quarantine add|remove|list` (docs/quarantine.md): a project's tests whose failures
// do not fail the build, set and lifted through the service's write API with the API key
// (docs/design/quarantine.md, the requests there). A read key may list, and gets the service's 403
// for a change, said as such.

const ACTIONS = ['add', 'remove', 'list'] as const;
type Action = (typeof ACTIONS)[number];

interface Quarantine {
  testSuite: string;
  testCase: string;
  reason: string;
  owner?: string;
  since: string;
  by: string;
  expiresAt: string;
  state: 'active' | 'expired' | 'lifted';
}

export const quarantine = defineCommand({
  name: 'quarantine',
  positionals: "add|remove|list ['<suite>' '<test>']",
  about: `
Quarantines a test: its failures stop failing the build, for a while, and stay in sight.
The test still runs; a failure of it is stored failed and marked quarantined. A build whose
every failure is a quarantined test's passes, under testrun run (docs/quarantine.md).

  npx @testrun/cli quarantine add --project web --reason 'flaky since the CDN change #812' \\
    'src/cart.test.ts' 'cart > totals > rounds'
  npx @testrun/cli quarantine remove --project web --reason 'fixed in #830' 'src/cart.test.ts' 'cart > totals > rounds'
  npx @testrun/cli quarantine list --project web

A test is named by its suite and its name as the service stores them (the run page shows
both). A quarantine lasts --days (30 unless given, at most 365) and is renewed by adding it
again. Every change is kept with who made it (--by, else the CI's or the system's user name),
when and why. Needs the API key (TESTRUN_API_KEY); a read key lists, and cannot change.
Reads TESTRUN_BASE_URL from the environment.
`,
  flags: {
    project: { type: 'string', value: '<name>', option: 'project' },
    reason: { type: 'string', value: '<text>', help: 'why (add, remove): a sentence, a ticket' },
    owner: { type: 'string', value: '<name>', help: 'who sees to the test (add)' },
    days: { type: 'string', value: '<n>', help: 'how long it lasts (add): 30 unless given, at most 365' },
    by: {
      type: 'string',
      value: '<name>',
      help: "who makes the change (default: the CI's user, else the system's)",
    },
    json: { type: 'boolean', help: "list: print the service's answer as JSON" },
    ...TLS_FLAGS,
  },
  run: async ({ values, options, positionals, output }) => {
    const [action, ...names] = positionals;
    if (!ACTIONS.includes(action as Action)) {
      throw new UsageError(
        `say what to do: add, remove or list, got ${action === undefined ? 'nothing' : `"${action}"`}`,
      );
    }
    const config = resolveCliConfig(options, output);
    if (!config) return 1;
    const project = values.project?.trim() || config.project;
    const send = (method: 'GET' | 'POST', path: string, body?: object) =>
      requestService(config, {
        method,
        path,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        userAgent: userAgent('cli'),
      });

    if (action === 'list') {
      if (names.length > 0) throw new UsageError("list takes no test: it lists the project's");
      const outcome = await send('GET', `/api/v1/quarantines?project=${encodeURIComponent(project)}`);
      if (outcome.kind !== 'ok') return failed(outcome, output);
      if (values.json) {
        output.out(`${outcome.response.body.trim()}\n`);
        return 0;
      }
      const { quarantines } = JSON.parse(outcome.response.body) as { quarantines: Quarantine[] };
      output.out(listed(project, quarantines));
      return 0;
    }

    if (names.length !== 2) {
      throw new UsageError(`${action} takes the test's suite and its name, each quoted: '<suite>' '<test>'`);
    }
    const [testSuite, testCase] = names as [string, string];
    const reason = values.reason?.trim();
    if (!reason)
      throw new UsageError(
        `--reason is required to ${action === 'add' ? 'quarantine' : 'lift'} a test: say why`,
      );
    const by = values.by?.trim() || whoIsThis();
    if (action === 'remove') {
      const outcome = await send('POST', '/api/v1/quarantines/lift', {
        project,
        testSuite,
        testCase,
        reason,
        by,
      });
      if (outcome.kind !== 'ok') return failed(outcome, output);
      output.out(
        `testrun quarantine: lifted ${named(testSuite, testCase)} in project ${JSON.stringify(project)}\n`,
      );
      return 0;
    }
    const days = values.days === undefined ? undefined : Number(values.days);
    if (days !== undefined && !(Number.isInteger(days) && days >= 1 && days <= 365)) {
      throw new UsageError(`--days must be a whole number of days from 1 to 365, got "${values.days}"`);
    }
    const owner = values.owner?.trim();
    const outcome = await send('POST', '/api/v1/quarantines', {
      project,
      testSuite,
      testCase,
      reason,
      by,
      ...(owner ? { owner } : {}),
      ...(days === undefined ? {} : { days }),
    });
    if (outcome.kind !== 'ok') return failed(outcome, output);
    const { quarantine: set, change } = JSON.parse(outcome.response.body) as {
      quarantine: Quarantine;
      change: { action: string };
    };
    const what = change.action === 'changed' ? 'changed the quarantine of' : 'quarantined';
    output.out(
      `testrun quarantine: ${what} ${named(testSuite, testCase)} in project ${JSON.stringify(project)} until ${day(set.expiresAt)}\n`,
    );
    return 0;
  },
});

/** `"cart > rounds" in src/cart.test.ts`. */
function named(testSuite: string, testCase: string): string {
  return `${JSON.stringify(testCase)} in ${testSuite}`;
}

function day(iso: string): string {
  return iso.slice(0, 10);
}

function listed(project: string, quarantines: readonly Quarantine[]): string {
  if (quarantines.length === 0) return `No test is quarantined in project ${JSON.stringify(project)}.\n`;
  const lines = [
    `${quarantines.length} ${quarantines.length === 1 ? 'test' : 'tests'} quarantined in project ${JSON.stringify(project)}:`,
  ];
  for (const q of quarantines) {
    const expiry =
      q.state === 'expired'
        ? `expired ${day(q.expiresAt)}: it quarantines nothing`
        : `until ${day(q.expiresAt)}`;
    lines.push(
      '',
      `  ${q.testSuite} › ${q.testCase}`,
      `    ${expiry} · since ${day(q.since)} by ${q.by}${q.owner ? ` · owner ${q.owner}` : ''}`,
      `    reason: ${q.reason}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** The service's refusal in one line; a read key is said as such. */
function failed(outcome: Exclude<SendOutcome, { kind: 'ok' }>, output: Output): number {
  output.error(outcome.error.message);
  return 1;
}

/** Who makes a change, when --by does not say: the CI's user, else the system's. */
function whoIsThis(): string {
  const { env } = process;
  const named =
    env.GITHUB_ACTOR ?? env.GITLAB_USER_LOGIN ?? env.BUILDKITE_BUILD_CREATOR ?? env.USER ?? env.USERNAME;
  if (named?.trim()) return named.trim();
  try {
    return os.userInfo().username;
  } catch {
    return 'someone with the API key';
  }
}
