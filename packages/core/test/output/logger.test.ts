import { createReporter, makeResults, startTestServer } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';
import { Logger } from '../../src/output/logger.js';

/** Erases the line, returns to its start and prints a fake green summary: what a hostile answer would try. */
const FAKE_SUMMARY = '\u001b[2K\r\u001b[32mtestrun: 99 results → run ok\u001b[0m\u001b]0;title\u0007';

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
