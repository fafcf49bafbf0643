const { runtime, slugify } = require('./slug.js');

// This file runs twice, in the text-node and text-edge projects: its results are told
// apart by the project's name before the file, [text-node] and [text-edge].
describe('slugify', () => {
  it('lowercases and joins words with dashes', () => {
    expect(slugify('Hello, World!')).toBe('hello-world');
  });

  it('drops accents', () => {
    expect(slugify('Crème brûlée')).toBe('creme-brulee');
  });
});

it('knows which runtime it is in', () => {
  expect(['node', 'edge']).toContain(runtime());
});
