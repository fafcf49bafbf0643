import path from 'node:path';
import { ConfigError } from '../errors.js';
import { type AttachmentLimits, type Extension, parseRunHandle } from '../extensions.js';
import { startDir } from '../start-dir.js';
import type { CanonicalStatus, TestrunOptions } from '../types.js';
import { type CompleteRunChoice, readCompleteRun } from './complete-run-request.js';
import { unknownOptionMessage } from './option-names.js';
import {
  DEFAULT_STATUS_MAP,
  OPTION_NAMES,
  OPTION_SPECS,
  type OptionName,
  type OptionSpec,
} from './option-specs.js';
import { optionFromText } from './option-text.js';
import { planKeyProblem } from './plan-key.js';
import { defaultProject } from './project-name.js';
import { checkBaseUrl, checkProxyVariables } from './service-address.js';
import { parseShard } from './shard-spec.js';
import { formatSize } from './size-text.js';
import { toStatus } from './status-text.js';
import { readTlsMaterial, type TlsMaterial } from './tls-material.js';

/** Options that have no default: absent unless given. */
type WithoutDefault =
  | 'runId'
  | 'runKey'
  | 'shard'
  | 'planKey'
  | 'runIdPath'
  | 'mapResult'
  | 'ca'
  | 'clientCert'
  | 'clientKey';

/** GitHub Actions' job summary file: the summary's default where it is set. */
const GITHUB_SUMMARY_VAR = 'GITHUB_STEP_SUMMARY';

/** Options after merging reporter options > environment > defaults, all checked. */
export type ResolvedConfig = Required<
  Omit<TestrunOptions, WithoutDefault | 'statusMap' | 'completeRun' | 'summary' | 'maxAttachmentSize'>
> & {
  [K in WithoutDefault]: TestrunOptions[K] | undefined;
} & {
  statusMap: Record<CanonicalStatus, string>;
  /** How the run is completed: 'auto' (the default) where the service announced it, a request always, false never. */
  completeRun: CompleteRunChoice;
  /**
   * What the service announced when the run given by `runId` was created, when the id came as
   * a handle that says it (extensions.ts); undefined when the run is created here or the id is bare.
   */
  runExtensions: Extension[] | undefined;
  /** The PEM text `ca`, `clientCert` and `clientKey` name, read and checked. */
  tls: TlsMaterial | undefined;
  /** `maxAttachmentSize` in bytes. */
  maxAttachmentSize: number;
  /** The limits the service announced for the run given by `runId`, when its handle says them. */
  runAttachmentLimits: AttachmentLimits | undefined;
  /** The CI summary's file, absolute; false: none (the option, TESTRUN_SUMMARY, else $GITHUB_STEP_SUMMARY). */
  summary: string | false;
};

export type ConfigResolution =
  | { state: 'enabled'; config: ResolvedConfig }
  /** Turned off on purpose (`enabled: false`, `TESTRUN_ENABLED=0`): nothing to say. */
  | { state: 'off' }
  /** No API key: say so once and stay off. */
  | { state: 'no-key'; message: string }
  | { state: 'invalid'; errors: ConfigError[]; failOnError: boolean };

interface ResolveInput {
  options: unknown;
  env: NodeJS.ProcessEnv;
  rootDir: string;
  /** False for commands that take the base URL elsewhere. */
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
  const values: Record<string, unknown> = {};
  const read = (name: OptionName) => {
    values[name] = readOption(name, OPTION_SPECS[name], options, env, errors);
  };
  // A reporter turned off on purpose says nothing about its other options.
  read('enabled');
  read('failOnError');
  if (values.enabled === false && errors.length === 0) return { state: 'off' };
  for (const name of OPTION_NAMES) if (!Object.hasOwn(values, name)) read(name);
  const config = values as ResolvedConfig;
  const apiKey = values.apiKey as string | undefined;

  config.apiKey = apiKey ?? '';
  // TESTRUN_RUN_ID as `testrun create-run` and the WebdriverIO launcher hand it: the id, and what the service announced.
  const handle = config.runId === undefined ? undefined : parseRunHandle(config.runId);
  config.runId = handle?.runId;
  config.runExtensions = handle?.extensions;
  config.runAttachmentLimits = handle?.attachmentLimits;
  checkRunKey(config.runKey, options, errors);
  checkShardOptions(config, options, errors);
  config.project ??= defaultProject(rootDir);
  // One place for every adapter and the CLI: where the command was started, not the
  // framework's root (Playwright's is its testDir), so `npx @testrun/cli replay` run there finds it.
  config.spoolDir = path.resolve(startDir, config.spoolDir);
  config.summary = summaryFile(config.summary as string | false | undefined, env);
  const baseUrl = values.baseUrl as string | undefined;
  config.baseUrl = '';
  if (apiKey !== undefined) {
    checkHeaderSafe(apiKey, errors);
    if (baseUrl !== undefined || baseUrlRequired) {
      config.baseUrl = checkBaseUrl(baseUrl, config.allowInsecureHttp, errors) ?? '';
    }
    checkProxyVariables(env, errors);
    config.tls = readTlsMaterial(config, rootDir, env, errors);
  }

  if (errors.length > 0) return { state: 'invalid', errors, failOnError: config.failOnError };
  if (!config.enabled) return { state: 'off' };
  if (apiKey === undefined) {
    return {
      state: 'no-key',
      message:
        'TESTRUN_API_KEY is not set, so results are not reported. Set it (or the apiKey option) and TESTRUN_BASE_URL to report this run.',
    };
  }
  return { state: 'enabled', config };
}

/**
 * The option if given, else its environment variable read as text, else the default; either
 * way checked against its spec, a variable's problem named by the variable.
 */
function readOption(
  name: OptionName,
  spec: OptionSpec,
  options: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
  errors: ConfigError[],
): unknown {
  const text = spec.env ? env[spec.env]?.trim() : undefined;
  const given = options[name] !== undefined;
  if (!given && !text) return copyOf(spec.default);
  const label = given || !spec.env ? name : spec.env;
  const value = given ? options[name] : optionFromText(name, text!);
  const fail = (option: string, problem: string) => {
    errors.push(new ConfigError(option, `option ${option} ${problem}`));
    return copyOf(spec.default);
  };
  switch (spec.kind) {
    case 'string':
    case 'secret':
      if (typeof value === 'string' && value.trim() !== '') return value.trim();
      return fail(label, `must be a non-empty string, got ${describe(value, spec.kind === 'secret')}.`);
    case 'boolean':
      if (typeof value === 'boolean') return value;
      return fail(
        label,
        `must be true or false${given ? '' : ' (or 1/0, yes/no, on/off)'}, got ${describe(value)}.`,
      );
    case 'integer':
      if (typeof value === 'number' && Number.isInteger(value) && value >= spec.min && value <= spec.max) {
        return value;
      }
      return fail(label, `must be a whole number from ${spec.min} to ${spec.max}, got ${describe(value)}.`);
    case 'size': {
      const bytes = sizeInBytes(value);
      if (bytes !== undefined && bytes >= spec.min && bytes <= spec.max) return bytes;
      return fail(
        label,
        `must be a size from ${spec.min} byte to ${formatSize(spec.max)}: a number of bytes, or text such as "25MB", "500KB" or "1GB", got ${describe(value)}.`,
      );
    }
    case 'choice':
      if (typeof value === 'string' && spec.values.includes(value)) return value;
      return fail(
        label,
        `must be ${orList(spec.values.map((choice) => `"${choice}"`))}, got ${describe(value)}.`,
      );
    case 'tags':
      if (Array.isArray(value) && value.every((tag) => typeof tag === 'string')) return cleanTags(value);
      return fail(label, `must be an array of strings, e.g. ["nightly"], got ${describe(value)}.`);
    case 'function':
      if (typeof value === 'function') return value;
      return fail(label, `must be a function ${spec.signature}, got ${describe(value)}.`);
    case 'statusMap':
      return readStatusMap(value, fail);
    case 'summary':
      if (value === false || (typeof value === 'string' && value.trim() !== '')) {
        return typeof value === 'string' ? value.trim() : value;
      }
      return fail(label, `must be a file's path or false, got ${describe(value)}.`);
    case 'completeRun': {
      const read = readCompleteRun(value);
      if ('request' in read) return read.request;
      return fail(label, `${read.problem}, got ${describe(value)}.`);
    }
  }
}

const SIZE_UNITS: Record<string, number> = {
  b: 1,
  kb: 1024,
  k: 1024,
  mb: 1024 ** 2,
  m: 1024 ** 2,
  gb: 1024 ** 3,
  g: 1024 ** 3,
};

/** Bytes of a size option: a whole number of bytes, or `25MB`, `1.5 GB`, `500kb` (binary multiples); undefined otherwise. */
export function sizeInBytes(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isInteger(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(value.trim());
  const unit = SIZE_UNITS[(match?.[2] || 'b').toLowerCase()];
  if (!match || unit === undefined) return undefined;
  return Math.round(Number(match[1]) * unit);
}

/** The summary's file: given, or where GitHub Actions collects a job's summary; false for none. */
function summaryFile(given: string | false | undefined, env: NodeJS.ProcessEnv): string | false {
  const file = given ?? (env[GITHUB_SUMMARY_VAR]?.trim() || false);
  return file === false ? false : path.resolve(startDir, file);
}

function readStatusMap(value: unknown, fail: (option: string, problem: string) => unknown): unknown {
  const expected = `an object mapping passed/failed/skipped/todo to the service's status strings, e.g. { todo: "pending" }`;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    fail('statusMap', `must be ${expected}, got ${describe(value)}.`);
    return { ...DEFAULT_STATUS_MAP };
  }
  const map = { ...DEFAULT_STATUS_MAP };
  for (const [key, status] of Object.entries(value)) {
    if (!Object.hasOwn(DEFAULT_STATUS_MAP, key)) {
      fail(`statusMap.${key}`, 'is not a status we report; use passed, failed, skipped or todo.');
    } else if (typeof status !== 'string' || toStatus(status.trim()) === undefined) {
      fail(
        `statusMap.${key}`,
        `must be a non-empty string without NUL or lone surrogates, got ${describe(status)}.`,
      );
    } else {
      map[key as CanonicalStatus] = status.trim();
    }
  }
  return map;
}

function readOptionsObject(value: unknown, errors: ConfigError[]): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    errors.push(new ConfigError('options', `reporter options must be an object, got ${describe(value)}.`));
    return {};
  }
  const options = value as Record<string, unknown>;
  for (const key of Object.keys(options)) {
    if (!Object.hasOwn(OPTION_SPECS, key)) errors.push(new ConfigError(key, unknownOptionMessage(key)));
  }
  return options;
}

/**
 * The key goes in a header: a line break (a wrapped secret) or a character outside
 * Latin-1 would fail every request locally. Which character, never the key itself.
 */
function checkHeaderSafe(apiKey: string, errors: ConfigError[]): void {
  const bad = /[^\t\x20-\x7e\x80-\xff]/.exec(apiKey);
  if (!bad) return;
  const what =
    bad[0] === '\n' || bad[0] === '\r'
      ? 'a line break'
      : `a character that cannot go in an HTTP header (U+${bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`;
  errors.push(
    new ConfigError(
      'apiKey',
      `option apiKey (TESTRUN_API_KEY) contains ${what} at position ${bad.index + 1}, so it cannot be sent. Copy the key again as one line, without spaces around it.`,
    ),
  );
}

/**
 * The run key goes in the Idempotency-Key header, which services take as 1 to 255 visible
 * ASCII characters (ours answers 400 otherwise): said here, not at every create-run.
 */
function checkRunKey(
  runKey: string | undefined,
  options: Record<string, unknown>,
  errors: ConfigError[],
): void {
  if (runKey === undefined || /^[\x21-\x7e]{1,255}$/.test(runKey)) return;
  const label = options.runKey !== undefined ? 'runKey' : (OPTION_SPECS.runKey.env ?? 'runKey');
  errors.push(
    new ConfigError(
      label,
      `option ${label} must be 1 to 255 visible ASCII characters (no spaces), as an Idempotency-Key header is, got ${describe(runKey)}. A UUID is a good key.`,
    ),
  );
}

/** `shard` reads as `<i>/<n>` and `planKey` can go in a header: said here, not at every request. */
function checkShardOptions(
  config: { shard?: string | undefined; planKey?: string | undefined },
  options: Record<string, unknown>,
  errors: ConfigError[],
): void {
  const labelOf = (name: 'shard' | 'planKey') =>
    options[name] !== undefined ? name : (OPTION_SPECS[name].env ?? name);
  const shard = config.shard === undefined ? undefined : parseShard(config.shard);
  if (shard && 'problem' in shard) {
    const label = labelOf('shard');
    errors.push(new ConfigError(label, `option ${label} ${shard.problem}.`));
  }
  const keyProblem = config.planKey === undefined ? undefined : planKeyProblem(config.planKey);
  if (keyProblem) {
    const label = labelOf('planKey');
    errors.push(new ConfigError(label, `option ${label} ${keyProblem}.`));
  }
}

/** Defaults are shared constants: each config gets its own arrays and objects. */
function copyOf(value: unknown): unknown {
  if (Array.isArray(value)) return [...value];
  if (value !== null && typeof value === 'object') return { ...value };
  return value;
}

function cleanTags(tags: readonly string[]): string[] {
  return [...new Set(tags.map((tag) => tag.trim()).filter(Boolean))];
}

function orList(items: readonly string[]): string {
  return items.length <= 2 ? items.join(' or ') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

/** Describes a bad value without echoing it when it may be a secret. */
function describe(value: unknown, secret = false): string {
  if (secret) return typeof value;
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (typeof value === 'function') return 'a function';
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  return String(value);
}
