import { describe, expect, it } from 'vitest';
import { FeatureLines } from '../src/feature-lines.js';

describe('FeatureLines', () => {
  const lines = new FeatureLines();
  lines.addDocument({
    uri: 'features/a.feature',
    feature: {
      children: [
        { background: { steps: [{ id: 'bg-step', location: { line: 4 } }] } },
        {
          rule: {
            children: [
              {
                scenario: {
                  id: 's',
                  location: { line: 8 },
                  steps: [{ id: 'step', location: { line: 9 } }],
                  examples: [{ tableBody: [{ id: 'row', location: { line: 12 } }] }],
                },
              },
            ],
          },
        },
      ],
    },
  });
  // As Cucumber 11 sends it: no location of its own.
  lines.addPickle({
    id: 'p',
    astNodeIds: ['s'],
    steps: [
      { id: 'p-bg', astNodeIds: ['bg-step'] },
      { id: 'p-step', astNodeIds: ['step'] },
    ],
  });
  lines.addPickle({ id: 'example', astNodeIds: ['s', 'row'], location: { line: 12 } });
  lines.addTestCase({
    id: 'tc',
    pickleId: 'p',
    testSteps: [
      { id: 'hook' },
      { id: 't-bg', pickleStepId: 'p-bg' },
      { id: 't-step', pickleStepId: 'p-step' },
    ],
  });

  it('finds a Background’s step and a Rule’s scenario’s step by the test step that runs it, and a pickle by its scenario or row (Cucumber 11 gives it no location)', () => {
    expect(lines.stepLine('t-bg')).toBe(4);
    expect(lines.stepLine('t-step')).toBe(9);
    expect(lines.declaredLine('p')).toBe(8);
    expect(lines.declaredLine('example')).toBe(12);
  });

  it('knows no line for a hook, or for what it was never told', () => {
    expect(lines.stepLine('hook')).toBeUndefined();
    expect(lines.stepLine(undefined)).toBeUndefined();
    expect(lines.declaredLine('other')).toBeUndefined();
  });
});
