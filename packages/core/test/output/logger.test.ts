import { createReporter, makeResults, startTestServer } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';
import { inert, Logger } from '../../src/output/logger.js';

/** Erases the line, returns to its start and prints a fake green summary: what a hostile answer would try. */
const FAKE_SUMMARY = '\u001b[2K\r\u001b[32mtestrun: 99 results → run ok\u001b[0m\u001b]0;title\u0007';

describe('inert', () => {
  it('shows C0 and C1 controls, DEL and bidirectional overrides as escapes', () => {
    expect(inert('a\u001bb\u009bc\u007fd\u202ee\u0007')).toBe('a\\u001bb\\u009bc\\u007fd\\u202ee\\u0007');
  });

  it('keeps tabs, and line breaks only when asked', () => {
    expect(inert('a\tb\nc')).toBe('a\tb\\u000ac');
    expect(inert('a\tb\nc', { keepLineBreaks: true })).toBe('a\tb\nc');
    expect(inert('a\r\nb', { keepLineBreaks: true })).toBe('a\\u000d\nb');
  });

  it('leaves printable text, unicode included, as it is', () => {
    expect(inert('größe 🚀 日本語 → ok')).toBe('größe 🚀 日本語 → ok');
  });
});

describe('Logger', () => {
  it('writes one line, whatever line breaks and escapes the message holds', () => {
    const written: string[] = [];
    new Logger((text) => written.push(text)).line(`answered 400: ${FAKE_SUMMARY}\ntestrun: fake`);
    expect(written).toHaveLength(1);
    expect(written[0]!.split('\n')).toHaveLength(2);
    expect(written[0]).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });
});

describe('a service whose error body holds terminal escapes', () => {
  it('gets them printed as text, never as escapes, and kept so in the error failOnError fails the run with', async () => {
    const { url, apiKey } = await startTestServer({
      faults: (request) =>
        request.route === 'submitResults' ? { status: 400, body: FAKE_SUMMARY } : undefined,
    });
    const { reporter, lines } = createReporter(url, apiKey, { failOnError: true });
    reporter.startRun();
    reporter.addResults(makeResults(2));
    await reporter.endRun();
    // The error the framework fails the run with (and prints itself) is inert too.
    expect(reporter.error?.message).toContain('answered 400: \\u001b[2K');
    expect(reporter.error?.message).not.toMatch(/[\u001b\u0007\u009b\r]/);
    const output = lines.join('\n');
    expect(output).toContain('answered 400: \\u001b[2K \\u001b[32mtestrun: 99 results → run ok');
    expect(output).not.toMatch(/[\u001b\u0007\u009b\r]/);
  });
});
