import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from './errors.js';
import type { CanonicalStatus, DurationUnit, ProjectLabel, TestrunOptions } from './types.js';

/** Options after merging reporter options > environment > defaults, all checked. */
export interface ResolvedConfig {
  apiKey: string;
  baseUrl: string;
  project: string;
  tags: string[];
  runId: string | undefined;
  ciTags: boolean;
  batchSize: number;
  concurrency: number;
  flushInterval: number;
  requestTimeout: number;
  flushTimeout: number;
  maxRetries: number;
  spoolDir: string;
  failOnError: boolean;
  debug: boolean;
  watch: boolean;
  statusMap: Record<CanonicalStatus, string>;
  durationUnit: DurationUnit;
  runIdPath: string | undefined;
  allowInsecureHttp: boolean;
  projectLabel: ProjectLabel;
  mapResult: TestrunOptions['mapResult'];
}

export type ConfigResolution =
  | { state: 'enabled'; config: ResolvedConfig }
  /** Turned off on purpose (`enabled: false`, `TESTRUN_ENABLED=0`): nothing to say. */
  | { state: 'off' }
  /** No API key: say so once and stay off. */
  | { state: 'no-key'; message: string }
  | { state: 'invalid'; errors: ConfigError[]; failOnError: boolean };

export const DEFAULT_STATUS_MAP: Record<CanonicalStatus, string> = {
  passed: 'passed',
  failed: 'failed',
  skipped: 'skipped',
  todo: 'skipped',
};

export const DEFAULTS = {
  batchSize: 500,
  concurrency: 4,
  flushInterval: 1_000,
  requestTimeout: 10_000,
  flushTimeout: 30_000,
  maxRetries: 5,
  spoolDir: '.testrun/spool',
} as const;

const KNOWN_OPTIONS = new Set([
  'apiKey',
  'baseUrl',
  'project',
  'tags',
  'runId',
  'enabled',
  'ciTags',
  'batchSize',
  'concurrency',
  'flushInterval',
  'requestTimeout',
  'flushTimeout',
  'maxRetries',
  'spoolDir',
  'failOnError',
  'debug',
  'watch',
  'statusMap',
  'durationUnit',
  'runIdPath',
  'allowInsecureHttp',
  'projectLabel',
  'mapResult',
]);

interface ResolveInput {
  options: unknown;
  env: NodeJS.ProcessEnv;
  rootDir: string;
  /** False for `testrun replay`, where each spool file names its service. */
  baseUrlRequired?: boolean;
}

/** Never throws: every problem becomes a ConfigError naming the option and the expected form. */
export function resolveConfig({
  options: rawOptions,
  env,
  rootDir,
  baseUrlRequired = true,
}: ResolveInput): ConfigResolution {
  const errors: ConfigError[] = [];
  const options = readOptionsObject(rawOptions, errors);
  const read = new OptionReader(options, env, errors);

  const enabled = read.boolean('enabled', 'TESTRUN_ENABLED', true);
  const failOnError = read.boolean('failOnError', undefined, false);
  if (!enabled && errors.length === 0) return { state: 'off' };

  const apiKey = read.string('apiKey', 'TESTRUN_API_KEY');
  const baseUrl = read.string('baseUrl', 'TESTRUN_BASE_URL');
  const allowInsecureHttp = read.boolean('allowInsecureHttp', undefined, false);
  const config: ResolvedConfig = {
    apiKey: apiKey ?? '',
    baseUrl: '',
    project: read.string('project', 'TESTRUN_PROJECT') ?? defaultProject(rootDir),
    tags: read.tags(),
    runId: read.string('runId', 'TESTRUN_RUN_ID'),
    ciTags: read.boolean('ciTags', undefined, true),
    batchSize: read.integer('batchSize', DEFAULTS.batchSize, 1, 10_000),
    concurrency: read.integer('concurrency', DEFAULTS.concurrency, 1, 64),
    flushInterval: read.integer('flushInterval', DEFAULTS.flushInterval, 0, 3_600_000),
    requestTimeout: read.integer('requestTimeout', DEFAULTS.requestTimeout, 1, 3_600_000),
    flushTimeout: read.integer('flushTimeout', DEFAULTS.flushTimeout, 1, 3_600_000),
    maxRetries: read.integer('maxRetries', DEFAULTS.maxRetries, 0, 100),
    spoolDir: path.resolve(rootDir, read.string('spoolDir', 'TESTRUN_SPOOL_DIR') ?? DEFAULTS.spoolDir),
    failOnError,
    debug: read.boolean('debug', 'TESTRUN_DEBUG', false),
    watch: read.boolean('watch', undefined, false),
    statusMap: read.statusMap(),
    durationUnit: read.durationUnit(),
    runIdPath: read.string('runIdPath', 'TESTRUN_RUN_ID_PATH'),
    allowInsecureHttp,
    projectLabel: read.projectLabel(),
    mapResult: read.mapResult(),
  };
  if (apiKey !== undefined && (baseUrl !== undefined || baseUrlRequired)) {
    config.baseUrl = checkBaseUrl(baseUrl, allowInsecureHttp, errors) ?? '';
  }
  if (apiKey !== undefined) checkProxyVariables(env, errors);

  if (errors.length > 0) return { state: 'invalid', errors, failOnError };
  if (!enabled) return { state: 'off' };
  if (apiKey === undefined) {
    return {
      state: 'no-key',
      message:
        'TESTRUN_API_KEY is not set, so results are not reported. Set it (or the apiKey option) and TESTRUN_BASE_URL to report this run.',
    };
  }
  return { state: 'enabled', config };
}

function readOptionsObject(value: unknown, errors: ConfigError[]): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    errors.push(new ConfigError('options', `reporter options must be an object, got ${describe(value)}.`));
    return {};
  }
  const options = value as Record<string, unknown>;
  for (const key of Object.keys(options)) {
    if (!KNOWN_OPTIONS.has(key)) {
      const hint = [...KNOWN_OPTIONS].find((known) => known.toLowerCase() === key.toLowerCase());
      errors.push(
        new ConfigError(
          key,
          `unknown option "${key}"${hint ? `; did you mean "${hint}"?` : `. Known options: ${[...KNOWN_OPTIONS].join(', ')}.`}`,
        ),
      );
    }
  }
  return options;
}

/** Reads one option at a time: the option if given, else its environment variable, else the default. */
class OptionReader {
  constructor(
    private readonly options: Record<string, unknown>,
    private readonly env: NodeJS.ProcessEnv,
    private readonly errors: ConfigError[],
  ) {}

  string(name: string, envName: string | undefined): string | undefined {
    const value = this.options[name];
    if (value !== undefined) {
      if (typeof value === 'string' && value.trim() !== '') return value.trim();
      return this.fail(name, `must be a non-empty string, got ${describe(value, name)}.`);
    }
    const fromEnv = envName ? this.env[envName]?.trim() : undefined;
    return fromEnv ? fromEnv : undefined;
  }

  boolean(name: string, envName: string | undefined, fallback: boolean): boolean {
    const value = this.options[name];
    if (value !== undefined) {
      if (typeof value === 'boolean') return value;
      return this.fail(name, `must be true or false, got ${describe(value)}.`) ?? fallback;
    }
    const fromEnv = envName ? this.env[envName]?.trim().toLowerCase() : undefined;
    if (!fromEnv) return fallback;
    if (['1', 'true', 'yes', 'on'].includes(fromEnv)) return true;
    if (['0', 'false', 'no', 'off'].includes(fromEnv)) return false;
    return this.fail(envName!, `must be 1/true or 0/false, got ${JSON.stringify(fromEnv)}.`) ?? fallback;
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const value = this.options[name];
    if (value === undefined) return fallback;
    if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return value;
    return (
      this.fail(name, `must be a whole number from ${min} to ${max}, got ${describe(value)}.`) ?? fallback
    );
  }

  tags(): string[] {
    const value = this.options.tags;
    if (value !== undefined) {
      if (Array.isArray(value) && value.every((tag) => typeof tag === 'string')) {
        return unique(value.map((tag) => tag.trim()).filter(Boolean));
      }
      return (
        this.fail('tags', `must be an array of strings, e.g. ["nightly"], got ${describe(value)}.`) ?? []
      );
    }
    return unique(
      (this.env.TESTRUN_TAGS ?? '')
        .split(',')
        .map((tag) => tag.trim())
        .filter(Boolean),
    );
  }

  statusMap(): Record<CanonicalStatus, string> {
    const value = this.options.statusMap;
    if (value === undefined) return { ...DEFAULT_STATUS_MAP };
    const expected = `an object mapping passed/failed/skipped/todo to the service's status strings, e.g. { todo: "pending" }`;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      return (
        this.fail('statusMap', `must be ${expected}, got ${describe(value)}.`) ?? { ...DEFAULT_STATUS_MAP }
      );
    }
    const map = { ...DEFAULT_STATUS_MAP };
    for (const [key, status] of Object.entries(value)) {
      if (!Object.hasOwn(DEFAULT_STATUS_MAP, key)) {
        this.fail(`statusMap.${key}`, `is not a status we report; use passed, failed, skipped or todo.`);
      } else if (typeof status !== 'string' || status.trim() === '') {
        this.fail(`statusMap.${key}`, `must be a non-empty string, got ${describe(status)}.`);
      } else {
        map[key as CanonicalStatus] = status.trim();
      }
    }
    return map;
  }

  durationUnit(): DurationUnit {
    const value = this.options.durationUnit;
    if (value === undefined || value === 'ms' || value === 's') return value ?? 'ms';
    return this.fail('durationUnit', `must be "ms" or "s", got ${describe(value)}.`) ?? 'ms';
  }

  projectLabel(): ProjectLabel {
    const value = this.options.projectLabel;
    if (value === undefined || value === 'auto' || value === 'always' || value === 'never')
      return value ?? 'auto';
    return (
      this.fail('projectLabel', `must be "auto", "always" or "never", got ${describe(value)}.`) ?? 'auto'
    );
  }

  mapResult(): TestrunOptions['mapResult'] {
    const value = this.options.mapResult;
    if (value === undefined || typeof value === 'function') return value as TestrunOptions['mapResult'];
    return this.fail(
      'mapResult',
      `must be a function (result, info) => result | null, got ${describe(value)}.`,
    );
  }

  private fail(name: string, problem: string): undefined {
    this.errors.push(new ConfigError(name, `option ${name} ${problem}`));
    return undefined;
  }
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export function checkBaseUrl(value: string | undefined, allowInsecureHttp: boolean, errors: ConfigError[]) {
  const fail = (problem: string) => {
    errors.push(new ConfigError('baseUrl', `option baseUrl (TESTRUN_BASE_URL) ${problem}`));
    return undefined;
  };
  if (value === undefined) {
    return fail('is required when an API key is set, e.g. https://testrun.example.com.');
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return fail(`must be an absolute URL such as https://testrun.example.com, got ${JSON.stringify(value)}.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return fail(`must use https://, got ${JSON.stringify(url.protocol)}.`);
  }
  if (url.protocol === 'http:' && !isLoopback(url.hostname) && !allowInsecureHttp) {
    return fail(
      `must use https:// so the API key is not sent in clear text (plain http is allowed for localhost only). Set allowInsecureHttp: true to override.`,
    );
  }
  if (url.search || url.hash) return fail('must not have a query or fragment.');
  return url.href.replace(/\/+$/, '');
}

export function isLoopback(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'];

/** A proxy variable undici cannot parse would fail every request; say so before the run. */
function checkProxyVariables(env: NodeJS.ProcessEnv, errors: ConfigError[]): void {
  for (const name of PROXY_VARIABLES) {
    const value = env[name]?.trim();
    if (!value) continue;
    let protocol: string | undefined;
    try {
      protocol = new URL(value).protocol;
    } catch {}
    if (protocol !== 'http:' && protocol !== 'https:') {
      errors.push(
        new ConfigError(
          name,
          `${name} must be a proxy URL such as http://proxy.example:3128, got ${JSON.stringify(value.replace(/(\/\/)?[^/@]*@/, '$1***@'))}.`,
        ),
      );
    }
  }
}

/** `name` of the nearest package.json at or above the project root; else the folder's name. */
export function defaultProject(rootDir: string): string {
  for (let dir = path.resolve(rootDir); ; dir = path.dirname(dir)) {
    const name = readPackageName(path.join(dir, 'package.json'));
    if (name) return name;
    if (path.dirname(dir) === dir) return path.basename(path.resolve(rootDir)) || 'unnamed';
  }
}

function readPackageName(file: string): string | undefined {
  try {
    const { name } = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: unknown };
    return typeof name === 'string' && name.trim() !== '' ? name.trim() : undefined;
  } catch {
    return undefined;
  }
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

/** Describes a bad value without echoing it when it may be a secret. */
function describe(value: unknown, name?: string): string {
  if (name === 'apiKey') return typeof value;
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (typeof value === 'function') return 'a function';
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  return String(value);
}
