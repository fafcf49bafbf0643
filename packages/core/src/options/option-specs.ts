import type { CanonicalStatus, TestrunOptions } from '../types.js';

// Every reporter option, once: its kind and range (validation), its environment variable
// (env reading) and its default and meaning (the README's options table, which a test
// holds to this list). Keyed by option name, so the compiler checks that each option of
// TestrunOptions has exactly one spec. See docs/design/configuration.md.

export type OptionKind =
  | { kind: 'string' }
  /** A string that is never echoed in a message. */
  | { kind: 'secret' }
  | { kind: 'boolean' }
  | { kind: 'integer'; min: number; max: number }
  /** A number of bytes, or text with a unit: `25MB`, `500 KB`, `1GB` (binary multiples). */
  | { kind: 'size'; min: number; max: number }
  | { kind: 'choice'; values: readonly string[] }
  /** An array of strings; from the environment, comma-separated. */
  | { kind: 'tags' }
  | { kind: 'statusMap' }
  /** `true`, `false`, or `{ method, path, body }`; from the environment, a boolean word or JSON. */
  | { kind: 'completeRun' }
  /** A file's path, or `false`; from the environment, `0`/`false`/`no`/`off` is false. */
  | { kind: 'summary' }
  | { kind: 'function'; signature: string };

export type OptionSpec = OptionKind & {
  env?: string;
  /** How the environment variable is written, when it needs saying (README). */
  envNote?: string;
  /** The value when neither the option nor its variable is set; undefined: none. */
  default?: unknown;
  /** The README's default cell. */
  defaultText: string;
  /** The README's meaning cell. */
  doc: string;
};

export type OptionName = keyof TestrunOptions;

export const DEFAULT_STATUS_MAP: Readonly<Record<CanonicalStatus, string>> = {
  passed: 'passed',
  failed: 'failed',
  skipped: 'skipped',
  todo: 'skipped',
};

const MAX_MS = 3_600_000;

export const OPTION_SPECS = {
  apiKey: {
    kind: 'secret',
    env: 'TESTRUN_API_KEY',
    defaultText: 'none: one line, reporting off',
    doc: 'Bearer key for the service. Never printed, logged or spooled.',
  },
  baseUrl: {
    kind: 'string',
    env: 'TESTRUN_BASE_URL',
    defaultText: 'none: required with a key',
    doc: "The service's address. `https://` required, except for localhost.",
  },
  project: {
    kind: 'string',
    env: 'TESTRUN_PROJECT',
    defaultText: '`name` of the nearest `package.json`',
    doc: "The run's project.",
  },
  tags: {
    kind: 'tags',
    env: 'TESTRUN_TAGS',
    envNote: '(comma-separated)',
    default: [],
    defaultText: '`[]`',
    doc: 'Free labels on the run; CI tags are added (see `ciTags`).',
  },
  runId: {
    kind: 'string',
    env: 'TESTRUN_RUN_ID',
    defaultText: 'none: a run is created',
    doc: 'Report into an existing run (shards, parallel jobs): its id, as `testrun create-run` prints it.',
  },
  runKey: {
    kind: 'string',
    env: 'TESTRUN_RUN_KEY',
    defaultText: 'none: a new key per run',
    doc: "create-run's `Idempotency-Key`: processes given the same key create one run between them, live or at replay (see below).",
  },
  shard: {
    kind: 'string',
    env: 'TESTRUN_SHARD',
    defaultText: "the runner's own `--shard`, if any",
    doc: 'The shard this process runs, `<i>/<n>` (`2/4`), when the runner is given a planned share of the files rather than its own `--shard`: results say which shard they came from, for the run page. `testrun plan` reads it too.',
  },
  planKey: {
    kind: 'string',
    env: 'TESTRUN_PLAN_KEY',
    defaultText: "the CI build's id (docs/sharding.md)",
    doc: 'What the shards of one build share their plan by (`testrun plan`, the sequencers): any text, the same in every shard.',
  },
  enabled: {
    kind: 'boolean',
    env: 'TESTRUN_ENABLED',
    envNote: '(`0`/`false` turns it off)',
    default: true,
    defaultText: '`true`',
    doc: 'Turn reporting off without touching the config.',
  },
  ciTags: {
    kind: 'boolean',
    default: true,
    defaultText: '`true`',
    doc: 'Add `ci:<provider>`, `branch:<name>`, `commit:<sha>`, `build:<id>`, `build-url:<url>`, `repo-url:<url>` (where CI says them), `shard:<i>/<n>`.',
  },
  batchSize: {
    kind: 'integer',
    min: 1,
    max: 10_000,
    default: 500,
    defaultText: '`500`',
    doc: 'Results per request (1–10,000).',
  },
  concurrency: {
    kind: 'integer',
    min: 1,
    max: 64,
    default: 4,
    defaultText: '`4`',
    doc: 'Requests in flight at once (1–64).',
  },
  flushInterval: {
    kind: 'integer',
    min: 0,
    max: MAX_MS,
    default: 1_000,
    defaultText: '`1000` ms',
    doc: 'A partial batch is sent after this long.',
  },
  requestTimeout: {
    kind: 'integer',
    min: 1,
    max: MAX_MS,
    default: 10_000,
    defaultText: '`10000` ms',
    doc: 'One attempt is abandoned (and retried) after this long.',
  },
  flushTimeout: {
    kind: 'integer',
    min: 1,
    max: MAX_MS,
    default: 30_000,
    defaultText: '`30000` ms',
    doc: 'The end of the run waits at most this long for delivery; then the rest is spooled.',
  },
  maxRetries: {
    kind: 'integer',
    min: 0,
    max: 100,
    default: 5,
    defaultText: '`5`',
    doc: 'Retries of one request (network errors, 408, 409, 429, 5xx).',
  },
  completeRun: {
    kind: 'completeRun',
    env: 'TESTRUN_COMPLETE_RUN',
    envNote: '(`auto`, `1`, `0`, or JSON)',
    default: 'auto',
    defaultText: "`'auto'`",
    doc: "Tell the service the run ended: `'auto'` (if the service takes it), `true`, `false`, or `{ method, path, body }` (see below).",
  },
  summary: {
    kind: 'summary',
    env: 'TESTRUN_SUMMARY',
    envNote: '(a path, or `0`)',
    defaultText: '`$GITHUB_STEP_SUMMARY` on GitHub Actions, else none',
    doc: 'Where the process that ends the run appends its CI summary in Markdown (docs/ci.md); `false`: none.',
  },
  failureDetails: {
    kind: 'choice',
    values: ['auto', 'always', 'never'],
    env: 'TESTRUN_FAILURE_DETAILS',
    default: 'auto',
    defaultText: "`'auto'`",
    doc: "Send why a test failed: `'auto'` (if the service takes it), `'always'`, `'never'`.",
  },
  attachments: {
    kind: 'choice',
    values: ['failed', 'all', 'none'],
    env: 'TESTRUN_ATTACHMENTS',
    default: 'failed',
    defaultText: "`'failed'`",
    doc: "Upload the files tests attached (screenshots, traces, videos, logs) where the service takes them: `'failed'` tests' (a pass on a retry included), `'all'`, `'none'`.",
  },
  maxAttachmentSize: {
    kind: 'size',
    min: 1,
    max: 4 * 1024 ** 3,
    env: 'TESTRUN_MAX_ATTACHMENT_SIZE',
    default: 100 * 1024 ** 2,
    defaultText: '`100MB`',
    doc: 'A larger file is not uploaded (one line says which): bytes, or `25MB`, `500KB`, `1GB`.',
  },
  spoolDir: {
    kind: 'string',
    env: 'TESTRUN_SPOOL_DIR',
    default: '.testrun/spool',
    defaultText: '`.testrun/spool`',
    doc: 'Where undelivered results wait for `testrun replay`; relative to the working directory.',
  },
  failOnError: {
    kind: 'boolean',
    default: false,
    defaultText: '`false`',
    doc: 'Fail the test run when results could not be delivered.',
  },
  debug: {
    kind: 'boolean',
    env: 'TESTRUN_DEBUG',
    default: false,
    defaultText: '`false`',
    doc: 'Log each request (method, URL, status, time); the key is redacted.',
  },
  watch: {
    kind: 'boolean',
    default: false,
    defaultText: '`false`',
    doc: 'In watch mode nothing is reported (one notice); `true` reports a run per rerun.',
  },
  statusMap: {
    kind: 'statusMap',
    default: DEFAULT_STATUS_MAP,
    defaultText: "`{ passed, failed, skipped, todo: 'skipped' }`",
    doc: "The status string sent for each outcome, e.g. `{ todo: 'pending' }`.",
  },
  durationUnit: {
    kind: 'choice',
    values: ['ms', 's'],
    default: 'ms',
    defaultText: "`'ms'`",
    doc: "`'ms'` or `'s'`.",
  },
  runIdPath: {
    kind: 'string',
    env: 'TESTRUN_RUN_ID_PATH',
    defaultText: 'well-known fields',
    doc: "Where create-run's answer keeps the id, e.g. `'data.attributes.id'`.",
  },
  allowInsecureHttp: {
    kind: 'boolean',
    default: false,
    defaultText: '`false`',
    doc: 'Allow `http://` to a host that is not this machine.',
  },
  ca: {
    kind: 'string',
    env: 'TESTRUN_CA_CERT',
    defaultText: "Node's CAs and `NODE_EXTRA_CA_CERTS`",
    doc: "A private CA to trust besides Node's: a PEM file's path or the PEM text.",
  },
  clientCert: {
    kind: 'string',
    env: 'TESTRUN_CLIENT_CERT',
    defaultText: 'none',
    doc: 'Client certificate (PEM file) for a service that requires mutual TLS; with `clientKey`.',
  },
  clientKey: {
    kind: 'string',
    env: 'TESTRUN_CLIENT_KEY',
    defaultText: 'none',
    doc: "The client certificate's private key (unencrypted PEM file). Never printed or spooled.",
  },
  projectLabel: {
    kind: 'choice',
    values: ['auto', 'always', 'never'],
    default: 'auto',
    defaultText: "`'auto'`",
    doc: "Prefix testSuite with `[project] `: `'auto'` when the config defines several projects.",
  },
  mapResult: {
    kind: 'function',
    signature: '(result, info) => result | null',
    defaultText: 'none',
    doc: '`(result, info) => result \\| null`: rename or drop a result before it is sent.',
  },
} as const satisfies Record<OptionName, OptionSpec>;

export const OPTION_NAMES = Object.keys(OPTION_SPECS) as OptionName[];

/** The rows of the README's options table (Option, Env, Default, Meaning), as its cells read. */
export function optionsTableRows(): string[][] {
  return OPTION_NAMES.map((name) => {
    const spec: OptionSpec = OPTION_SPECS[name];
    const env = spec.env ? [`\`${spec.env}\``, spec.envNote].filter(Boolean).join(' ') : '—';
    return [`\`${name}\``, env, spec.defaultText, spec.doc];
  });
}
