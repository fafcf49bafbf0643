import { describe, expect, it } from 'vitest';
import { fileNamedFirst } from '../../src/results/named-file.js';

describe('fileNamedFirst', () => {
  const files = ['/p/spec/a.spec.js', '/p/spec/b.spec.js'];

  it('gives the file the text names first, the throwing frame before its callers', () => {
    const stack = 'Error: x\n    at /p/spec/b.spec.js:3:9\n    at /p/spec/a.spec.js:7:1';
    expect(fileNamedFirst(stack, files)).toBe('/p/spec/b.spec.js');
  });

  it('takes only a whole path, never part of a longer one', () => {
    expect(fileNamedFirst('at /p/spec/a.spec.jsx:1:1 and x/p/spec/b.spec.js', files)).toBeUndefined();
  });

  it('finds a file in any of the forms it is given for it', () => {
    const forms = (file: string) => [file, `file://${file}`];
    expect(
      fileNamedFirst('at file:///p/spec/a.spec.js:2:3', ['/q/a.spec.js', '/p/spec/a.spec.js'], forms),
    ).toBe('/p/spec/a.spec.js');
    // Without the URL form, the path inside the URL is part of a longer one.
    expect(fileNamedFirst('at file:///p/spec/a.spec.js:2:3', ['/p/spec/a.spec.js'])).toBeUndefined();
  });
});
