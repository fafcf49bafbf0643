import fs from 'node:fs';
import path from 'node:path';

// Citations of the repository's Markdown pages, held to what the pages hold: code, tests,
// scripts and docs cite a decision as `docs/design/<file>.md#<heading>` (in Markdown, a link to
// the same path and anchor), the heading as GitHub makes its anchor. A citation of a page that
// does not exist, of a heading a page does not have, a section number (`§21`, `section 4`) or a
// heading quoted by its title (`x.md, "Title"`, which nothing can check once it wraps) is stale.
// test/design-citations.test.ts runs this over the repository; test/citations.test.ts shows
// that it finds each kind on a fixture.

/** One citation this check could not resolve. */
export interface StaleCitation {
  /** The citing file, relative to the root, and the line of the citation, from 1. */
  file: string;
  line: number;
  /** What it cites, as written. */
  cites: string;
  /** What is wrong, and what exists instead. */
  problem: string;
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
export function headingSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '').replace(/ /g, '-');
}

/** Text with its fenced code blocks blanked, line for line, so that line numbers still hold. */
function withoutFences(markdown: string): string {
  let fence: string | undefined;
  return markdown
    .split('\n')
    .map((line) => {
      const open = /^\s*(`{3,}|~{3,})/.exec(line);
      if (fence === undefined) {
        if (open) fence = open[1];
        return open ? '' : line;
      }
      if (open && line.trim().startsWith(fence) && line.trim().replace(/[`~]/g, '') === '') fence = undefined;
      return '';
    })
    .join('\n');
}

/** The anchors a Markdown page offers: its headings' (a repeated one gets -1, -2…) and `<a id>`s. */
export function anchorsOf(markdown: string): string[] {
  const anchors: string[] = [];
  const seen = new Map<string, number>();
  const text = withoutFences(markdown);
  for (const [, heading] of text.matchAll(/^#{1,6}[ \t]+(.*?)[ \t]*#*[ \t]*$/gm)) {
    const slug = headingSlug(heading!);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.push(count === 0 ? slug : `${slug}-${count}`);
  }
  for (const [, id] of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.push(id!);
  return anchors;
}

/** A Markdown link's target: a page (and heading), a heading of this page, or elsewhere. */
const MARKDOWN_LINK = /\[[^\]\n]*\]\(([^)\s]+)\)/g;
/** A page named in text: a path ending in `.md`, maybe with `#anchor`, not part of a URL. */
const PAGE_REFERENCE = /(?<![\w/.@:-])((?:\.{1,2}\/)*(?:[\w.-]+\/)*[\w.-]+\.md)(#[\w-]*)?/g;
/** `page.md, "Title"` or `page.md ("Title"`: a heading cited by its title. */
const QUOTED_TITLE = /^(?:,|:)?\s*\(?"([^"\n]+)"?/;
/** A section number: `§21b`, `§ 4`, `section 11a`; the service's spec keeps its own (`spec §4.1`). */
const SECTION_NUMBER = /(?<!\bspec(?:'s)?\s)(?:§\s?\d+[a-z]?(?:\.\d+)?|\b[Ss]ections? \d+[a-z]?\b)/g;

/** Where `target`, cited in `from`, is: beside the citing file, else from the root. */
function resolvePage(root: string, from: string, target: string, strict: boolean): string | undefined {
  const beside = path.normalize(path.join(path.dirname(from), target));
  if (strict || fs.existsSync(path.join(root, beside))) return beside;
  const fromRoot = path.normalize(target);
  if (fs.existsSync(path.join(root, fromRoot))) return fromRoot;
  return undefined;
}

/** Whether `index` of a source file's text lies in a comment: after `//` or `#`, or on a block comment's line. */
function inComment(text: string, index: number, file: string): boolean {
  const before = text.slice(text.lastIndexOf('\n', index - 1) + 1, index);
  if (/^\s*(?:\*|\/\*)/.test(before) || /(?<!:)\/\//.test(before)) return true;
  return /\.(?:sh|ya?ml)$|^\.ci\//.test(file) && before.includes('#');
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** Every stale citation in `files` (paths relative to `root`). */
export function staleCitations(root: string, files: readonly string[]): StaleCitation[] {
  const anchorCache = new Map<string, string[]>();
  const anchors = (page: string) => {
    let found = anchorCache.get(page);
    if (!found) {
      found = anchorsOf(fs.readFileSync(path.join(root, page), 'utf8'));
      anchorCache.set(page, found);
    }
    return found;
  };
  const stale: StaleCitation[] = [];

  for (const file of files) {
    const original = fs.readFileSync(path.join(root, file), 'utf8');
    const isMarkdown = file.endsWith('.md');
    let text = isMarkdown ? withoutFences(original) : original;
    const report = (index: number, cites: string, problem: string) =>
      stale.push({ file, line: lineOf(text, index), cites, problem });

    /** A page and anchor: the page must exist, the anchor be one of its headings. */
    const check = (
      index: number,
      cites: string,
      target: string,
      anchor: string | undefined,
      strict: boolean,
    ) => {
      const page = target === '' ? file : resolvePage(root, file, target, strict);
      if (page === undefined || !fs.existsSync(path.join(root, page))) {
        const hint = /(^|\/)design\.md$/.test(target)
          ? ': the design is docs/design/, one file per concern (docs/design/README.md)'
          : '';
        report(index, cites, `no such file${hint}`);
        return;
      }
      if (anchor === undefined || anchor === '' || !page.endsWith('.md')) return;
      const offered = anchors(page);
      if (!offered.includes(anchor)) {
        report(
          index,
          cites,
          `${page} has no heading #${anchor}; it has ${offered.map((a) => `#${a}`).join(', ')}`,
        );
      }
    };

    if (isMarkdown) {
      for (const match of text.matchAll(MARKDOWN_LINK)) {
        const target = match[1]!;
        if (/^[a-z][a-z+.-]*:/i.test(target)) continue;
        const [page, anchor] = target.split('#') as [string, string | undefined];
        if (page !== '' && !page.endsWith('.md')) continue;
        check(match.index, target, decodeURI(page), anchor, true);
      }
      // A link's target is checked above; what is left of the text is read as prose.
      text = text.replace(MARKDOWN_LINK, (link) => ' '.repeat(link.length));
    }

    for (const match of text.matchAll(PAGE_REFERENCE)) {
      // In code, a page named outside a comment is a file the code reads or writes, not a citation.
      if (!isMarkdown && !inComment(text, match.index, file)) continue;
      const [written, target, hash] = match as unknown as [string, string, string | undefined];
      const after = text.slice(match.index + written.length, match.index + written.length + 200);
      const quoted = hash === undefined ? QUOTED_TITLE.exec(after) : null;
      if (quoted) {
        report(
          match.index,
          `${target}, "${quoted[1]}"`,
          `a heading quoted by its title: cite it as ${target}#${headingSlug(quoted[1]!)}`,
        );
      }
      check(match.index, written, target, hash?.slice(1), false);
    }

    for (const match of text.matchAll(SECTION_NUMBER)) {
      report(
        match.index,
        match[0],
        'a section number: cite the page and its heading, docs/design/<file>.md#<heading> (docs/design/README.md lists the files)',
      );
    }
  }
  return stale;
}

/** The form a test prints: one stale citation a line. */
export function describeStale(stale: readonly StaleCitation[]): string[] {
  return stale.map((entry) => `${entry.file}:${entry.line}: cites ${entry.cites}: ${entry.problem}`);
}
