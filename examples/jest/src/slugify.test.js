const { slugify } = require('./slugify');

describe('slugify', () => {
  it.each([
    ['Hello, World!', 'hello-world'],
    ['  Crème brûlée  ', 'creme-brulee'],
    ['Version 2.0 -- Release Notes', 'version-2-0-release-notes'],
  ])('turns %j into %j', (title, slug) => {
    expect(slugify(title)).toBe(slug);
  });

  it('returns an empty slug for a title without letters or digits', () => {
    expect(slugify('!!!')).toBe('');
  });
});
