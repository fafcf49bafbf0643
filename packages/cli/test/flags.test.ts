import { describe, expect, it } from 'vitest';
import { defineCommand } from '../src/command.js';
import { type Flags, optionLines, optionsFrom, synopsisOf } from '../src/flags.js';

const tlsFlags = {
  'client-cert': { type: 'string', value: '<pem>', option: 'clientCert' },
  'client-key': { type: 'string', value: '<pem>', option: 'clientKey' },
} as const satisfies Flags;

describe('the help of flags', () => {
  it("gives a flag that sets a reporter option its spec's meaning, variable and default", () => {
    const flags: Flags = { 'run-id': { type: 'string', value: '<id>', option: 'runId' } };
    expect(optionLines(flags, 200)).toBe(
      '  --run-id <id>   report into an existing run (shards, parallel jobs): its id, as testrun create-run prints it (default: TESTRUN_RUN_ID, else none: a run is created)',
    );
  });

  it('gives a flag of its own its help, and its default when it has one', () => {
    const flags: Flags = {
      port: { type: 'string', value: '<port>', default: '0', help: 'port to listen on' },
      verbose: { type: 'boolean', short: 'v', help: 'say more' },
    };
    expect(optionLines(flags).split('\n')).toEqual([
      '  --port <port>   port to listen on (default: 0)',
      '  -v, --verbose   say more',
    ]);
  });

  it("names an option that a spec mentions by this command's flag for it, where it has one", () => {
    expect(optionLines(tlsFlags, 200)).toContain('requires mutual TLS; with --client-key (default:');
    expect(optionLines({ 'client-cert': tlsFlags['client-cert'] }, 200)).toContain(
      'requires mutual TLS; with clientKey (default:',
    );
  });

  it('wraps the help at 80 columns, the lines after the first under the first', () => {
    const lines = optionLines(tlsFlags).split('\n');
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    const column = lines[0]!.indexOf('client certificate');
    expect(column).toBeGreaterThan(0);
    expect(lines[1]!.slice(0, column).trim()).toBe('');
    expect(lines[1]![column]).not.toBe(' ');
  });
});

describe('the usage of a command', () => {
  const command = defineCommand({
    name: 'send',
    positionals: '<files…>',
    about: 'Sends files.',
    flags: {
      to: { type: 'string', value: '<url>', required: true, help: 'where to' },
      ...tlsFlags,
    },
    run: async () => 0,
  });

  it('starts with the required flags and arguments, then its prose, then a line for each flag and --help', () => {
    expect(command.usage).toMatch(
      /^Usage: testrun send <files…> --to <url> \[options\]\n\nSends files\.\n\nOptions:\n/,
    );
    expect(command.usage).toContain('\n  --to <url>            where to (required)\n');
    expect(command.usage).toMatch(/\n {2}-h, --help {12}show this help\n$/);
  });

  it('has a synopsis with every flag, wrapped under the arguments', () => {
    expect(synopsisOf(command, 60)).toBe(
      ['testrun send <files…> --to <url> [--client-cert <pem>]', '             [--client-key <pem>]'].join(
        '\n',
      ),
    );
  });
});

describe('the reporter options that flags set', () => {
  const flags: Flags = {
    project: { type: 'string', option: 'project' },
    tags: { type: 'string', option: 'tags' },
    'no-ci-tags': { type: 'boolean', negates: 'ciTags', help: 'do not add CI tags' },
    framework: { type: 'string', help: 'not an option' },
  };

  it('are the options of the flags given, tags split at commas, a --no- flag setting its option false', () => {
    expect(
      optionsFrom(flags, { project: 'web', tags: 'a, b,,c', 'no-ci-tags': true, framework: 'x' }),
    ).toEqual({
      project: 'web',
      tags: ['a', 'b', 'c'],
      ciTags: false,
    });
  });

  it("are read from their text as the environment and Mocha's reporter options are", () => {
    const textFlags: Flags = {
      debug: { type: 'string', option: 'debug' },
      'batch-size': { type: 'string', option: 'batchSize' },
      'allow-insecure-http': { type: 'boolean', option: 'allowInsecureHttp' },
    };
    expect(
      optionsFrom(textFlags, { debug: 'yes', 'batch-size': '200', 'allow-insecure-http': true }),
    ).toEqual({ debug: true, batchSize: 200, allowInsecureHttp: true });
    expect(optionsFrom(textFlags, { 'batch-size': 'lots' })).toEqual({ batchSize: 'lots' });
  });

  it('leave out what was not given, so that variables and defaults apply', () => {
    expect(optionsFrom(flags, { project: undefined })).toEqual({});
  });
});
