import { describe, expect, it } from 'vitest';
import { screenshotOf, WdioMapping } from '../src/map-events.js';
import type { WdioEvent } from '../src/wdio-events.js';

// Screenshots a WebdriverIO test took, from the commands' answers its worker's reporter hears.

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
const file = '/specs/checkout.spec.js';

describe('screenshotOf', () => {
  it("reads the PNG of WebDriver classic's screenshot commands and BiDi's, nothing of other commands", () => {
    const base64 = PNG.toString('base64');
    expect(screenshotOf({ command: 'takeScreenshot', result: { value: base64 } })).toEqual(PNG);
    expect(
      screenshotOf({
        endpoint: '/session/:sessionId/element/:elementId/screenshot',
        result: { value: base64 },
      }),
    ).toEqual(PNG);
    expect(screenshotOf({ command: 'browsingContextCaptureScreenshot', result: { data: base64 } })).toEqual(
      PNG,
    );
    expect(screenshotOf({ command: 'getTitle', result: { value: base64 } })).toBeUndefined();
    expect(screenshotOf({ command: 'takeScreenshot', result: { value: '' } })).toBeUndefined();
  });
});

describe('a worker’s screenshots', () => {
  it('go with the test that took them, an afterTest hook’s too, and with no other test', () => {
    const shot = {
      name: 'client:afterCommand',
      payload: { command: 'takeScreenshot', result: { value: PNG.toString('base64') } },
    } as unknown as WdioEvent;
    const events: WdioEvent[] = [
      { name: 'runner:start', payload: { specs: [`file://${file}`] } },
      { name: 'suite:start', payload: { title: 'checkout', file } },
      { name: 'test:start', payload: { uid: 't1', title: 'pays', file } },
      shot,
      {
        name: 'test:fail',
        payload: { uid: 't1', title: 'pays', file, duration: 3, error: { message: 'boom' } },
      },
      // An afterTest hook's screenshot, after the test's end.
      shot,
      { name: 'test:start', payload: { uid: 't2', title: 'shows the total', file } },
      { name: 'test:pass', payload: { uid: 't2', title: 'shows the total', file, duration: 1 } },
      { name: 'suite:end', payload: { title: 'checkout', file } },
    ];
    const [report] = new WdioMapping().take(events, true);
    expect(report!.tests.map((test) => [test.titles.at(-1), test.attachments?.length ?? 0])).toEqual([
      ['pays', 2],
      ['shows the total', 0],
    ]);
    expect(report!.tests[0]!.attachments![0]).toEqual({
      name: 'screenshot',
      contentType: 'image/png',
      body: PNG,
    });
  });
});
