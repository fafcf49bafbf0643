import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FAILURE_DETAIL_LIMITS, toFailureDetails } from '../../src/results/failure-details.js';
import {
  EMPTY_NAME,
  MAX_LABEL_LENGTH,
  MAX_NAME_LENGTH,
  toLabel,
  toName,
  toRunPayload,
} from '../../src/results/result-name.js';

// The local server refuses a write holding NUL or an unpaired surrogate, and a run label past
// MAX_LABEL_LENGTH characters, with a 400 for the whole batch
// (docs/design/server-storage.md#what-a-write-may-hold): whatever a framework or a test gives, core
// never sends either.

/** What the server refuses in any text of a write. */
const storable = (text: string) => text.isWellFormed() && !text.includes('\u0000');

/** Any text, lone surrogates and NUL weighted up, now and then longer than any bound. */
const anyText = fc.oneof(
  fc.string({
    unit: fc.oneof(
      fc.constantFrom('\u0000', '\ud800', '\udfff', '\t', '\u001b', '\ufeff'),
      fc.integer({ min: 0, max: 0x10ffff }).map((code) => String.fromCodePoint(code)),
      fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }),
    ),
    maxLength: 40,
  }),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 4 }).map((text) => `\ud800${text.repeat(5_000)}`),
);

const codePoints = (text: string) => Array.from(text).length;

describe('what core sends is text the service stores', () => {
  it('a name: well formed, no NUL, at most MAX_NAME_LENGTH characters', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const name = toName(text);
        expect(storable(name)).toBe(true);
        expect(codePoints(name)).toBeLessThanOrEqual(MAX_NAME_LENGTH);
      }),
    );
  });

  it('a run: its project, framework and tags well formed, no NUL, at most MAX_LABEL_LENGTH characters, none blank', () => {
    fc.assert(
      fc.property(anyText, anyText, fc.array(anyText, { maxLength: 4 }), (project, framework, tags) => {
        const run = toRunPayload({ project, framework, tags });
        for (const label of [run.project, run.framework, ...run.tags]) {
          expect(storable(label)).toBe(true);
          expect(codePoints(label)).toBeLessThanOrEqual(MAX_LABEL_LENGTH);
          expect(label.trim()).not.toBe('');
        }
      }),
    );
  });

  it('failure details: every text well formed, no NUL, within its bound', () => {
    const root = path.resolve('/repo');
    fc.assert(
      fc.property(anyText, anyText, anyText, (message, stack, location) => {
        const error = Object.assign(new Error(message), { stack });
        const details = toFailureDetails(
          { errors: [error], location: { file: path.join(root, location), line: 3 } },
          { rootDir: root, secrets: undefined },
        );
        for (const field of ['message', 'stack', 'location'] as const) {
          const text = details?.[field];
          if (text === undefined) continue;
          expect(storable(text)).toBe(true);
          expect(codePoints(text)).toBeLessThanOrEqual(FAILURE_DETAIL_LIMITS[field]);
        }
      }),
    );
  });

  it('changes nothing else in a label: a tag is matched as it is written', () => {
    expect(toLabel('branch:feat/ünï 🚀\ttabbed')).toBe('branch:feat/ünï 🚀\ttabbed');
    expect(toLabel('a\u0000b\ud800c')).toBe('a b\ufffdc');
    expect(toLabel('🚀'.repeat(600))).toMatch(/^(?:🚀){494}…#[0-9a-f]{16}$/u);
    expect(toRunPayload({ project: '\u0000', framework: 'jest', tags: ['\u0000', 'ci', 'ci'] })).toEqual({
      project: EMPTY_NAME,
      framework: 'jest',
      tags: ['ci'],
    });
  });
});
