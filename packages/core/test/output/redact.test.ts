import {
  createReporter,
  createReporterOver,
  makeResults,
  startTestServer,
  TRANSPORTS,
} from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/options/config.js';
import { redact, secretPattern } from '../../src/output/redact.js';

const KEY = 'SECRETKEY/zq7+XvB93==';

/** `\u002B`-style escapes of the characters `which` picks, as System.Text.Json writes `+`, `/` and `=`. */
function unicodeEscaped(text: string, which: RegExp, lowerHex = false): string {
  return text.replace(which, (character) => {
    const hex = character.charCodeAt(0).toString(16).padStart(4, '0');
    return `\\u${lowerHex ? hex : hex.toUpperCase()}`;
  });
}

/** Every way the key could be written back to us. */
const FORMS = [
  KEY,
  KEY.toLowerCase(),
  JSON.stringify(KEY).slice(1, -1),
  'SECRETKEY\\/zq7+XvB93==',
  encodeURIComponent(KEY),
  encodeURIComponent(KEY).toLowerCase(),
  unicodeEscaped(KEY, /[+/=]/g),
  unicodeEscaped(KEY, /[+/=]/g, true),
  unicodeEscaped(KEY, /[^A-Z]/g),
  'SECRETKEY&#47;zq7&#x2b;XvB93&#61;&#x3D;',
  'SECRETKEY%2Fzq7+XvB93%3d%3D',
];

describe('redact', () => {
  it.each(FORMS)('hides the key written as %s', (form) => {
    const text = `{"echo":"Bearer ${form}"}`;
    expect(redact(text, secretPattern([KEY]))).toBe('{"echo":"Bearer ***"}');
  });

  // Text with no `\`, `%`, `&` or `+` takes a quick plain search instead of the full pattern.
  it.each([
    ['as it is', 'key sk-live_9aB3xyz in a sentence', 'key *** in a sentence'],
    ['in another letter case', 'key SK-LIVE_9AB3XYZ', 'key ***'],
    ['twice, beside an escaped form', 'sk-live_9aB3xyz / sk\u002dlive_9aB3xyz', '*** / ***'],
    ['not at all', 'sk-live_9aB3xy is one short', 'sk-live_9aB3xy is one short'],
  ])('hides a key without escape characters written %s', (_, text, redacted) => {
    expect(redact(text, secretPattern(['sk-live_9aB3xyz']))).toBe(redacted);
  });

  it('hides a key that is not ASCII in any letter case', () => {
    expect(redact('clé-ÉTÉ-2024 and CLÉ-été-2024', secretPattern(['clé-été-2024']))).toBe('*** and ***');
  });

  it('leaves text without the key alone, and short secrets unredacted', () => {
    expect(redact('nothing to hide', secretPattern([KEY]))).toBe('nothing to hide');
    expect(secretPattern(['abc'])).toBeUndefined();
  });
});

describe.each(TRANSPORTS)('a service that echoes the Authorization header, over $name', (transport) => {
  it.each([
    ['JSON-escaped as PHP writes it', (auth: string) => JSON.stringify({ auth }).replaceAll('/', '\\/')],
    ['lower-cased', (auth: string) => `<p>bad header: ${auth.toLowerCase()}</p>`],
    ['URL-encoded', (auth: string) => `next=${encodeURIComponent(auth)}`],
    [
      "escaped as ASP.NET's System.Text.Json writes it",
      (auth: string) => unicodeEscaped(JSON.stringify({ auth }), /[+/=]/g),
    ],
    ['in HTML', (auth: string) => `<p>${auth.replace(/[+/=]/g, (c) => `&#${c.charCodeAt(0)};`)}</p>`],
  ])('never gets the key into a line when it answers with it %s', async (_how, echo) => {
    const { url } = await startTestServer({
      apiKeys: [KEY],
      faults: (request) => ({ status: 400, body: echo(String(request.headers.authorization)) }),
    });
    const { reporter, lines } = await createReporterOver(transport, url, KEY, { debug: true });
    reporter.startRun();
    reporter.addResults(makeResults(2));
    await reporter.endRun();
    const output = lines.join('\n');
    expect(output).toContain('answered 400');
    for (const form of FORMS) expect(output).not.toContain(form);
  });
});

describe('a base URL with credentials', () => {
  it('is refused as an option without echoing them', () => {
    const resolution = resolveConfig({
      options: { apiKey: 'k-123456', baseUrl: 'https://ci-user:hunter2-pw@svc.example.com' },
      env: {},
      rootDir: process.cwd(),
    });
    expect(resolution.state).toBe('invalid');
    const message = resolution.state === 'invalid' ? resolution.errors[0]!.message : '';
    expect(message).toMatch(
      /must not contain credentials .*TESTRUN_API_KEY.*"https:\/\/\*\*\*@svc\.example\.com"/,
    );
    expect(message).not.toContain('hunter2-pw');
    expect(message).not.toContain('ci-user');
  });
});

describe('a key that cannot go in a header', () => {
  it.each([
    ['an inner line break', 'first-half\nsecond-half', /contains a line break at position 11/],
    [
      'a character outside Latin-1',
      'key-with-ü-and-€',
      /contains a character that cannot go in an HTTP header \(U\+20AC\) at position 16/,
    ],
  ])(
    'turns reporting off with one line naming TESTRUN_API_KEY for %s, and sends nothing',
    async (_what, key, message) => {
      const { server, url } = await startTestServer();
      const { reporter, lines } = createReporter(url, key);
      reporter.startRun();
      reporter.addResults(makeResults(2));
      await reporter.endRun();
      expect(lines).toEqual([
        expect.stringMatching(/^testrun: reporting is off: option apiKey \(TESTRUN_API_KEY\) /),
      ]);
      expect(lines[0]).toMatch(message);
      expect(lines[0]).not.toContain(key.split('\n')[0]);
      expect(server.requests).toHaveLength(0);
    },
  );
});
