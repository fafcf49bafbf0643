import { describe, expect, it } from 'vitest';
import { inert } from '../src/inert.js';

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
