import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';
import { type ConfigResolution, resolveConfig } from '../../src/options/config.js';
import { OPTION_SPECS } from '../../src/options/option-specs.js';
import { defaultProject } from '../../src/options/project-name.js';

const rootDir = tempDir('testrun-config-');
fs.writeFileSync(path.join(rootDir, 'package.json'), JSON.stringify({ name: 'shop-web' }));
const keyEnv = { TESTRUN_API_KEY: 'k-123456', TESTRUN_BASE_URL: 'https://svc.example.com' };

function resolve(options: unknown, env: NodeJS.ProcessEnv = keyEnv): ConfigResolution {
  return resolveConfig({ options, env, rootDir });
}

function enabled(options: unknown, env: NodeJS.ProcessEnv = keyEnv) {
  const resolution = resolve(options, env);
  if (resolution.state !== 'enabled') throw new Error(`expected enabled, got ${JSON.stringify(resolution)}`);
  return resolution.config;
}

function problems(options: unknown, env: NodeJS.ProcessEnv = keyEnv): string[] {
  const resolution = resolve(options, env);
  if (resolution.state !== 'invalid') throw new Error(`expected invalid, got ${resolution.state}`);
  return resolution.errors.map((error) => `${error.option}: ${error.message}`);
}

describe('resolveConfig', () => {
  it('uses the documented defaults when only key and URL are set', () => {
    const config = enabled(undefined);
    expect(config).toMatchObject({
      apiKey: 'k-123456',
      baseUrl: 'https://svc.example.com',
      project: 'shop-web',
      tags: [],
      runId: undefined,
      ciTags: true,
      batchSize: OPTION_SPECS.batchSize.default,
      concurrency: 4,
      flushInterval: 1000,
      requestTimeout: 10_000,
      flushTimeout: 30_000,
      maxRetries: 5,
      spoolDir: path.join(process.cwd(), '.testrun/spool'),
      failOnError: false,
      debug: false,
      watch: false,
      statusMap: { passed: 'passed', failed: 'failed', skipped: 'skipped', todo: 'skipped' },
      durationUnit: 'ms',
    });
  });

  it('takes reporter options over environment variables', () => {
    const env = {
      ...keyEnv,
      TESTRUN_PROJECT: 'from-env',
      TESTRUN_TAGS: 'a, b,,a',
      TESTRUN_RUN_ID: 'env-run',
    };
    expect(enabled({}, env)).toMatchObject({ project: 'from-env', tags: ['a', 'b'], runId: 'env-run' });
    expect(enabled({ project: 'opt', tags: ['x'], runId: 'opt-run' }, env)).toMatchObject({
      project: 'opt',
      tags: ['x'],
      runId: 'opt-run',
    });
    expect(enabled({ apiKey: 'opt-key', baseUrl: 'https://other.example/' }).baseUrl).toBe(
      'https://other.example',
    );
  });

  it("resolves a relative spool dir against the working directory, not the framework's root", () => {
    expect(rootDir).not.toBe(process.cwd());
    expect(enabled({ spoolDir: 'out/spool' }).spoolDir).toBe(path.join(process.cwd(), 'out/spool'));
    expect(enabled({}, { ...keyEnv, TESTRUN_SPOOL_DIR: 'env/spool' }).spoolDir).toBe(
      path.join(process.cwd(), 'env/spool'),
    );
  });

  it('reads booleans and the spool dir from the environment', () => {
    const env = { ...keyEnv, TESTRUN_DEBUG: '1', TESTRUN_SPOOL_DIR: '/tmp/spool-x' };
    expect(enabled({}, env)).toMatchObject({ debug: true, spoolDir: '/tmp/spool-x' });
  });

  it('is off without a word when disabled by option or TESTRUN_ENABLED', () => {
    expect(resolve({ enabled: false })).toEqual({ state: 'off' });
    expect(resolve({}, { ...keyEnv, TESTRUN_ENABLED: '0' })).toEqual({ state: 'off' });
    expect(resolve({}, { ...keyEnv, TESTRUN_ENABLED: 'false' })).toEqual({ state: 'off' });
  });

  it('says in one line how to turn reporting on when there is no API key', () => {
    const resolution = resolve({}, {});
    expect(resolution.state).toBe('no-key');
    expect(resolution.state === 'no-key' && resolution.message).toMatch(/TESTRUN_API_KEY is not set/);
  });

  it('requires a base URL once a key is set', () => {
    expect(problems({}, { TESTRUN_API_KEY: 'k-123456' })).toEqual([
      expect.stringMatching(/^baseUrl: option baseUrl \(TESTRUN_BASE_URL\) is required/),
    ]);
  });

  it('refuses plain http to a remote host unless allowInsecureHttp is set', () => {
    expect(problems({ baseUrl: 'http://svc.example.com' })[0]).toMatch(
      /must use https:\/\/.*allowInsecureHttp/,
    );
    expect(enabled({ baseUrl: 'http://svc.example.com', allowInsecureHttp: true }).baseUrl).toBe(
      'http://svc.example.com',
    );
    for (const local of ['http://localhost:3000', 'http://127.0.0.1:9', 'http://[::1]:80']) {
      expect(enabled({ baseUrl: local }).baseUrl).toBe(local.replace(':80', ''));
    }
  });

  it.each([
    ['batchSize', 0, /batchSize must be a whole number from 1 to 10000, got 0/],
    ['batchSize', '500', /batchSize must be a whole number .* got "500"/],
    ['concurrency', 1.5, /concurrency must be a whole number from 1 to 64, got 1.5/],
    ['flushInterval', -1, /flushInterval must be a whole number from 0/],
    ['requestTimeout', Number.NaN, /requestTimeout must be a whole number .* got NaN/],
    ['flushTimeout', null, /flushTimeout must be a whole number .* got null/],
    ['maxRetries', 101, /maxRetries must be a whole number from 0 to 100/],
    ['project', '', /project must be a non-empty string, got ""/],
    ['tags', 'a,b', /tags must be an array of strings, e.g. \["nightly"\], got "a,b"/],
    ['tags', [1], /tags must be an array of strings/],
    ['enabled', 'yes', /enabled must be true or false, got "yes"/],
    ['failOnError', 1, /failOnError must be true or false, got 1/],
    ['durationUnit', 'min', /durationUnit must be "ms" or "s", got "min"/],
    ['mapResult', 'rename', /mapResult must be a function/],
    ['statusMap', 'x', /statusMap must be an object mapping passed\/failed\/skipped\/todo/],
    ['baseUrl', 'svc.example.com', /baseUrl .* must be an absolute URL such as https:/],
    ['baseUrl', 'ftp://svc.example.com', /baseUrl .* must use https:\/\//],
  ])('names option %s and the expected form when given %j', (option, value, message) => {
    const found = problems({ [option]: value });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(new RegExp(`^${option}: `));
    expect(found[0]).toMatch(message);
  });

  it('names each bad statusMap entry', () => {
    expect(problems({ statusMap: { todo: '', flaky: 'x', failed: 'fail\u0000ed' } })).toEqual([
      expect.stringMatching(/^statusMap.todo: .*must be a non-empty string/),
      expect.stringMatching(/^statusMap.flaky: .*use passed, failed, skipped or todo/),
      expect.stringMatching(/^statusMap.failed: .*must be a non-empty string without NUL or lone surrogates/),
    ]);
  });

  it('suggests the right spelling of an unknown option', () => {
    expect(problems({ batchsize: 10 })).toEqual([expect.stringContaining('did you mean "batchSize"?')]);
    expect(problems({ flushTimout: 10 })).toEqual([
      'flushTimout: unknown option "flushTimout"; did you mean "flushTimeout"?',
    ]);
    expect(problems({ concurency: 2 })[0]).toContain('did you mean "concurrency"?');
    expect(problems({ colour: 'red' })[0]).toContain('Known options: apiKey, baseUrl');
  });

  it('never echoes a bad API key value', () => {
    const [message] = problems({ apiKey: 12345678 });
    expect(message).toContain('apiKey must be a non-empty string, got number');
    expect(message).not.toContain('12345678');
  });

  it('reports a bad TESTRUN_ENABLED value by its variable name', () => {
    expect(problems({}, { ...keyEnv, TESTRUN_ENABLED: 'maybe' })).toEqual([
      'TESTRUN_ENABLED: option TESTRUN_ENABLED must be true or false (or 1/0, yes/no, on/off), got "maybe".',
    ]);
  });

  it('names a proxy variable that is not a URL, without its credentials', () => {
    expect(problems({}, { ...keyEnv, HTTPS_PROXY: 'user:secret@10.0.0.1:3128' })).toEqual([
      'HTTPS_PROXY: HTTPS_PROXY must be a proxy URL such as http://proxy.example:3128, got "***@10.0.0.1:3128".',
    ]);
    expect(
      enabled({}, { ...keyEnv, HTTPS_PROXY: 'http://proxy.example:3128', NO_PROXY: 'localhost' }),
    ).toBeTruthy();
  });

  it('reads runIdPath from TESTRUN_RUN_ID_PATH', () => {
    expect(enabled({}, { ...keyEnv, TESTRUN_RUN_ID_PATH: 'data.attributes.id' }).runIdPath).toBe(
      'data.attributes.id',
    );
  });

  it('reads the create-run key from TESTRUN_RUN_KEY, the option winning, and has none by default', () => {
    expect(enabled({}).runKey).toBeUndefined();
    expect(enabled({}, { ...keyEnv, TESTRUN_RUN_KEY: ' run-7 ' }).runKey).toBe('run-7');
    expect(enabled({ runKey: 'mine' }, { ...keyEnv, TESTRUN_RUN_KEY: 'run-7' }).runKey).toBe('mine');
  });

  it('refuses a run key that cannot be an Idempotency-Key header, naming where it came from', () => {
    expect(problems({}, { ...keyEnv, TESTRUN_RUN_KEY: 'two words' })).toEqual([
      'TESTRUN_RUN_KEY: option TESTRUN_RUN_KEY must be 1 to 255 visible ASCII characters (no spaces), as an Idempotency-Key header is, got "two words". A UUID is a good key.',
    ]);
    expect(problems({ runKey: 'k'.repeat(256) })[0]).toMatch(/^runKey: option runKey must be 1 to 255/);
  });

  it('rejects options that are not an object', () => {
    expect(problems('web')[0]).toMatch(/reporter options must be an object, got "web"/);
  });

  it('still validates options when there is no API key, and remembers failOnError', () => {
    const resolution = resolve({ batchSize: -1, failOnError: true }, {});
    expect(resolution).toMatchObject({ state: 'invalid', failOnError: true });
  });
});

describe('defaultProject', () => {
  it('is the name of the nearest package.json above the root', () => {
    const nested = path.join(rootDir, 'packages', 'ui');
    fs.mkdirSync(nested, { recursive: true });
    expect(defaultProject(nested)).toBe('shop-web');
  });
});

describe('completeRun', () => {
  const DEFAULT = { method: 'PATCH', path: '/api/v1/runs/{runId}', body: '{"status":"{status}"}' };

  it('is \'auto\' by default; true is PATCH /api/v1/runs/{runId} with {"status":…}; false is off', () => {
    expect(enabled(undefined).completeRun).toBe('auto');
    expect(enabled({ completeRun: true }).completeRun).toEqual(DEFAULT);
    expect(enabled(undefined, { ...keyEnv, TESTRUN_COMPLETE_RUN: 'yes' }).completeRun).toEqual(DEFAULT);
    expect(enabled({ completeRun: false }).completeRun).toBe(false);
    expect(enabled(undefined, { ...keyEnv, TESTRUN_COMPLETE_RUN: '0' }).completeRun).toBe(false);
    expect(enabled(undefined, { ...keyEnv, TESTRUN_COMPLETE_RUN: ' Auto ' }).completeRun).toBe('auto');
  });

  it("takes an object's fields over the default's, its body as JSON text or as a value", () => {
    expect(enabled({ completeRun: { method: 'post', path: '/runs/{runId}/finish' } }).completeRun).toEqual({
      ...DEFAULT,
      method: 'POST',
      path: '/runs/{runId}/finish',
    });
    expect(enabled({ completeRun: { body: { state: '{status}' } } }).completeRun).toEqual({
      ...DEFAULT,
      body: '{"state":"{status}"}',
    });
    const env = { ...keyEnv, TESTRUN_COMPLETE_RUN: '{"method":"PUT","body":"{\\"s\\":\\"{status}\\"}"}' };
    expect(enabled(undefined, env).completeRun).toEqual({
      ...DEFAULT,
      method: 'PUT',
      body: '{"s":"{status}"}',
    });
  });

  it.each([
    [
      { completeRun: 'yes' },
      `completeRun: option completeRun must be 'auto', true, false or an object { method, path, body }, got "yes".`,
    ],
    [
      { completeRun: { method: 'GET' } },
      'completeRun: option completeRun must have method PATCH, POST, PUT, got an object.',
    ],
    [
      { completeRun: { path: 'runs/{runId}' } },
      expect.stringContaining('must have a path that starts with "/"'),
    ],
    [
      { completeRun: { body: '{"status":{status}}' } },
      expect.stringContaining('must have a body that is JSON once {status}'),
    ],
    [
      { completeRun: { verb: 'PATCH' } },
      expect.stringContaining('has no field "verb"; it takes method, path and body'),
    ],
  ])('says what is wrong with %j', (options, message) => {
    expect(problems(options)).toEqual([message]);
  });

  it('names the variable when it is the variable that is wrong', () => {
    expect(problems(undefined, { ...keyEnv, TESTRUN_COMPLETE_RUN: 'maybe' })).toEqual([
      `TESTRUN_COMPLETE_RUN: option TESTRUN_COMPLETE_RUN must be 'auto', true, false or an object { method, path, body }, got "maybe".`,
    ]);
  });
});

describe('runId as testrun create-run hands it', () => {
  it('reads the id and what the service announced from TESTRUN_RUN_ID', () => {
    const config = enabled(undefined, {
      ...keyEnv,
      TESTRUN_RUN_ID: '8f3c1a2b;extensions=failure-details,complete-run',
    });
    expect(config.runId).toBe('8f3c1a2b');
    expect(config.runExtensions).toEqual(['failure-details', 'complete-run']);
  });

  it('knows nothing of the service from a bare id, nor when it creates the run itself', () => {
    const bare = enabled({ runId: '8f3c1a2b' });
    expect([bare.runId, bare.runExtensions]).toEqual(['8f3c1a2b', undefined]);
    const own = enabled(undefined);
    expect([own.runId, own.runExtensions]).toEqual([undefined, undefined]);
  });
});

describe('attachments and maxAttachmentSize', () => {
  it("send failed tests' files up to 100 MB by default", () => {
    expect(enabled(undefined)).toMatchObject({ attachments: 'failed', maxAttachmentSize: 100 * 1024 * 1024 });
  });

  it('read a size as bytes or with a unit, from the option or the environment', () => {
    expect(enabled({ maxAttachmentSize: 2048 }).maxAttachmentSize).toBe(2048);
    expect(enabled({ maxAttachmentSize: '25MB' }).maxAttachmentSize).toBe(25 * 1024 * 1024);
    expect(enabled({ maxAttachmentSize: '1.5 gb' }).maxAttachmentSize).toBe(1.5 * 1024 ** 3);
    expect(enabled(undefined, { ...keyEnv, TESTRUN_MAX_ATTACHMENT_SIZE: '500KB' }).maxAttachmentSize).toBe(
      512_000,
    );
    expect(enabled(undefined, { ...keyEnv, TESTRUN_MAX_ATTACHMENT_SIZE: '4096' }).maxAttachmentSize).toBe(
      4096,
    );
    expect(enabled(undefined, { ...keyEnv, TESTRUN_ATTACHMENTS: 'all' }).attachments).toBe('all');
  });

  it('name a size that is no size, or past 4 GB, and the form expected', () => {
    expect(problems({ maxAttachmentSize: '25 megabytes' })).toEqual([
      'maxAttachmentSize: option maxAttachmentSize must be a size from 1 byte to 4 GB: a number of bytes, or text such as "25MB", "500KB" or "1GB", got "25 megabytes".',
    ]);
    expect(problems({ maxAttachmentSize: '5GB' })).toHaveLength(1);
    expect(problems(undefined, { ...keyEnv, TESTRUN_MAX_ATTACHMENT_SIZE: '-1' })[0]).toMatch(
      /option TESTRUN_MAX_ATTACHMENT_SIZE must be a size/,
    );
    expect(problems({ attachments: 'failures' })[0]).toMatch(
      /option attachments must be "failed", "all" or "none", got "failures"\.$/,
    );
  });
});

describe('summary', () => {
  it("is GitHub Actions' job summary where it is set, and none elsewhere", () => {
    expect(enabled(undefined).summary).toBe(false);
    expect(
      enabled(undefined, { ...keyEnv, GITHUB_STEP_SUMMARY: '/runner/_temp/step_summary_1' }).summary,
    ).toBe('/runner/_temp/step_summary_1');
  });

  it('takes a path from the option or TESTRUN_SUMMARY, relative to the working directory; false or 0 turns it off', () => {
    const github = { ...keyEnv, GITHUB_STEP_SUMMARY: '/gh/summary' };
    expect(enabled({ summary: 'out/summary.md' }, github).summary).toBe(path.resolve('out/summary.md'));
    expect(enabled(undefined, { ...github, TESTRUN_SUMMARY: 'gitlab.md' }).summary).toBe(
      path.resolve('gitlab.md'),
    );
    expect(enabled({ summary: false }, github).summary).toBe(false);
    expect(enabled(undefined, { ...github, TESTRUN_SUMMARY: '0' }).summary).toBe(false);
    expect(enabled(undefined, { ...github, TESTRUN_SUMMARY: 'off' }).summary).toBe(false);
  });

  it('names a value that is neither a path nor false', () => {
    expect(problems({ summary: true })).toEqual([
      "summary: option summary must be a file's path or false, got true.",
    ]);
    expect(problems({ summary: ' ' })).toEqual([
      `summary: option summary must be a file's path or false, got " ".`,
    ]);
  });
});
