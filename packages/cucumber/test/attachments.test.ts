import type { RawTest } from '@testrun/core';
import { describe, expect, it } from 'vitest';
import { EnvelopeMapping, rawAttachment } from '../src/map-envelopes.js';
import type { Envelope } from '../src/messages.js';

// What a scenario's steps attached (`this.attach`, `this.log`, `this.link`), by attempt.

const gherkin: Envelope[] = [
  {
    gherkinDocument: {
      uri: 'features/checkout.feature',
      feature: {
        name: 'checkout',
        children: [{ scenario: { id: 's1', name: 'pays', location: { line: 3 }, steps: [] } }],
      },
    },
  },
  { pickle: { id: 'p1', uri: 'features/checkout.feature', name: 'pays', astNodeIds: ['s1'], steps: [] } },
  { testCase: { id: 'tc1', pickleId: 'p1', testSteps: [{ id: 'st1' }] } },
];

function attemptOf(number: number, status: string, attachments: Envelope[]): Envelope[] {
  const id = `a${number}`;
  return [
    { testCaseStarted: { id, testCaseId: 'tc1', attempt: number - 1, timestamp: { seconds: number } } },
    ...attachments.map((envelope) => ({ attachment: { ...envelope.attachment, testCaseStartedId: id } })),
    {
      testStepFinished: {
        testCaseStartedId: id,
        testStepId: 'st1',
        testStepResult: { status, message: status === 'FAILED' ? 'boom' : undefined },
      },
    },
    {
      testCaseFinished: {
        testCaseStartedId: id,
        timestamp: { seconds: number, nanos: 5e8 },
        willBeRetried: number === 1,
      },
    },
  ];
}

describe('a scenario’s attachments', () => {
  it('go with its result, every attempt’s, as bytes or text with their media type', () => {
    const scenarios: RawTest[] = [];
    const mapping = new EnvelopeMapping(
      { scenario: (_uri, test) => scenarios.push(test), fileFailed: () => {}, runError: () => {} },
      { dryRun: false },
    );
    const envelopes = [
      ...gherkin,
      ...attemptOf(1, 'FAILED', [
        { attachment: { body: 'paid for 2 items', contentEncoding: 'IDENTITY', mediaType: 'text/plain' } },
        {
          attachment: {
            body: Buffer.from([0x89, 0x50]).toString('base64'),
            contentEncoding: 'BASE64',
            mediaType: 'image/png',
            fileName: 'cart.png',
          },
        },
      ]),
      ...attemptOf(2, 'FAILED', [
        {
          attachment: {
            body: 'second try',
            contentEncoding: 'IDENTITY',
            mediaType: 'text/x.cucumber.log+plain',
          },
        },
      ]),
      { testRunFinished: { success: false } },
    ];
    for (const envelope of envelopes) mapping.add(envelope);
    expect(scenarios).toHaveLength(1);
    expect(scenarios[0]!.attachments).toEqual([
      { name: 'attachment', contentType: 'text/plain', body: 'paid for 2 items', attempt: 1 },
      { name: 'cart.png', contentType: 'image/png', body: Buffer.from([0x89, 0x50]), attempt: 1 },
      { name: 'log', contentType: 'text/plain', body: 'second try', attempt: 2 },
    ]);
  });

  it('name a link as one', () => {
    expect(rawAttachment({ body: 'https://ci.example/1', mediaType: 'text/uri-list' }, undefined)).toEqual({
      name: 'link',
      contentType: 'text/uri-list',
      body: 'https://ci.example/1',
    });
  });
});
