const assert = require('node:assert/strict');
const { slugify } = require('./slugify');

describe('slugify', () => {
  for (const [title, slug] of [
    ['Hello, World!', 'hello-world'],
    ['  Crème brûlée  ', 'creme-brulee'],
    ['Version 2.0 -- Release Notes', 'version-2-0-release-notes'],
  ]) {
    it(`turns ${JSON.stringify(title)} into ${JSON.stringify(slug)}`, () => {
      assert.equal(slugify(title), slug);
    });
  }

  it('returns an empty slug for a title without letters or digits', () => {
    assert.equal(slugify('!!!'), '');
  });
});
