import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorsOf, describeStale, headingSlug, staleCitations } from './citations.js';

// The citation check on a fixture that cites a design page rightly and wrongly in every way
// the repository could (test/fixtures/citations): what test/design-citations.test.ts relies on
// to fail when a citation goes stale.
const FIXTURE = path.join(import.meta.dirname, 'fixtures', 'citations');

describe('headingSlug', () => {
  it.each([
    ["11a. The run's end", '11a-the-runs-end'],
    ['413, 400, refused keys, TLS', '413-400-refused-keys-tls'],
    ['`read-runs`, announced like `complete-run`', 'read-runs-announced-like-complete-run'],
    ['`--parallel`', '--parallel'],
    ['7. Fixed cost per run (`fixed-cost.mjs`)', '7-fixed-cost-per-run-fixed-costmjs'],
    ['The [spool](spool.md) and replay', 'the-spool-and-replay'],
  ])('makes GitHub’s anchor of %j', (heading, slug) => {
    expect(headingSlug(heading)).toBe(slug);
  });
});

describe('anchorsOf', () => {
  it('numbers a repeated heading, keeps explicit anchors and skips code blocks', () => {
    const page = '# A\n\n## B\n\n## B\n\n<a id="c"></a>\n\n```md\n## D\n```\n';
    expect(anchorsOf(page)).toEqual(['a', 'b', 'b-1', 'c']);
  });
});

describe('staleCitations', () => {
  const stale = describeStale(staleCitations(FIXTURE, ['docs/page.md', 'src/cites.ts']));

  it('names each stale citation with its line, what it cites and what is wrong', () => {
    const headings = '#delivery, #retries-and-the-deadline, #retries-and-the-deadline-1, #kept-anchor';
    expect(stale).toEqual([
      `docs/page.md:7: cites design/delivery.md#no-such-heading: docs/design/delivery.md has no heading #no-such-heading; it has ${headings}`,
      'docs/page.md:8: cites #missing-here: docs/page.md has no heading #missing-here; it has #a-page',
      'docs/page.md:8: cites design/missing.md: no such file',
      `src/cites.ts:5: cites docs/design/delivery.md#the-deadline: docs/design/delivery.md has no heading #the-deadline; it has ${headings}`,
      'src/cites.ts:6: cites docs/design/missing.md#retries: no such file',
      'src/cites.ts:7: cites docs/design.md: no such file: the design is docs/design/, one file per concern (docs/design/README.md)',
      'src/cites.ts:8: cites docs/design/delivery.md, "Retries and the deadline": a heading quoted by its title: cite it as docs/design/delivery.md#retries-and-the-deadline',
      'src/cites.ts:7: cites §7: a section number: cite the page and its heading, docs/design/<file>.md#<heading> (docs/design/README.md lists the files)',
      'src/cites.ts:9: cites section 9: a section number: cite the page and its heading, docs/design/<file>.md#<heading> (docs/design/README.md lists the files)',
    ]);
  });

  it('finds nothing in citations that resolve', () => {
    const resolving = staleCitations(FIXTURE, ['docs/design/delivery.md']);
    expect(resolving).toEqual([]);
  });
});
