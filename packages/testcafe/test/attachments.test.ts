import { describe, expect, it } from 'vitest';
import { mapTestDone } from '../src/map-events.js';
import { recordOf } from '../src/record-events.js';

// TestCafe's screenshots and videos, with the browser and attempt that made them.

describe('a test’s screenshots and videos', () => {
  const record = recordOf(
    'pays',
    {
      fixture: { name: 'checkout', path: '/tests/checkout.test.js' },
      durationMs: 5,
      errs: [{ testRunId: 'r2', userAgent: 'Chrome', errMsg: 'boom' }],
      browsers: [
        {
          alias: 'chromium:headless',
          prettyUserAgent: 'Chrome',
          testRunId: 'r2',
          quarantineAttemptsTestRunIds: ['r1', 'r2'],
        },
        { alias: 'firefox:headless', prettyUserAgent: 'Firefox', testRunId: 'f1' },
      ],
      screenshots: [
        { testRunId: 'r1', screenshotPath: '/shots/1.png', quarantineAttempt: 1, takenOnFail: true },
        { testRunId: 'r2', screenshotPath: '/shots/2.png', quarantineAttempt: 2, takenOnFail: true },
        { testRunId: 'f1', screenshotPath: '/shots/f.png', takenOnFail: false },
      ],
      videos: [
        { testRunId: 'r2', videoPath: '/videos/r2.mp4' },
        { testRunId: '', videoPath: '/videos/all.mp4', singleFile: true },
      ],
    },
    undefined,
  );

  it('go with the browser whose test runs made them, each screenshot with its quarantine attempt; a whole task’s video with none', () => {
    const [chromium, firefox] = mapTestDone(record, new Map());
    expect(chromium!.tests[0]!.attachments).toEqual([
      { name: 'screenshot', path: '/shots/1.png', attempt: 1 },
      { name: 'screenshot', path: '/shots/2.png', attempt: 2 },
      { name: 'video', path: '/videos/r2.mp4' },
    ]);
    expect(firefox!.tests[0]!.attachments).toEqual([{ name: 'screenshot', path: '/shots/f.png' }]);
  });
});
