import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { type DefaultTreeAdapterMap, parseFragment } from 'parse5';

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

/**
 * Markdown as GitHub renders it before it sanitizes: CommonMark with GitHub's extensions
 * (tables, autolinked URLs, the tag filter), HTML in the Markdown passed through as GitHub
 * passes it to its sanitizer. A test then looks at the HTML as a browser parses it
 * (`htmlElements`): what a hostile name could have made is there to be found.
 */
export function renderGfm(markdown: string): string {
  return micromark(markdown, {
    allowDangerousHtml: true,
    extensions: [gfm()],
    htmlExtensions: [gfmHtml()],
  });
}

/** An element of rendered HTML: its tag, attributes, and its text (descendants' included). */
export interface HtmlElement {
  tag: string;
  attributes: Record<string, string>;
  text: string;
}

/** Every element of `html` as a browser's parser builds it, in document order. */
export function htmlElements(html: string): HtmlElement[] {
  const elements: HtmlElement[] = [];
  const visit = (node: Node) => {
    if ('tagName' in node) {
      const element = node as Element;
      elements.push({
        tag: element.tagName,
        attributes: Object.fromEntries(element.attrs.map((attr) => [attr.name, attr.value])),
        text: textOf(element),
      });
    }
    if ('childNodes' in node) for (const child of node.childNodes) visit(child);
    if ('content' in node && node.content) visit(node.content as Node);
  };
  visit(parseFragment(html) as Node);
  return elements;
}

/** The text of a node as a reader sees it: its text nodes, in order. */
export function textOf(node: Node): string {
  if (node.nodeName === '#text') return (node as DefaultTreeAdapterMap['textNode']).value;
  if ('childNodes' in node) return node.childNodes.map(textOf).join('');
  return '';
}

/** A CI summary (core's summary/render.ts) as a reader of the rendered page sees it. */
export interface ReadSummary {
  heading: string;
  /** The counts line read back: each status's count, `flaky`, and `tests` (the total). */
  counts: Record<string, number>;
  /** Each table's rows by the last column's header: `Why it failed`, `Attempts`, `Duration`. */
  tables: Record<string, { cells: string[]; href: string | undefined }[]>;
  /** The paragraphs after the counts: "and N more…", notes, and the footer last. */
  paragraphs: string[];
}

export function readSummary(markdown: string): ReadSummary {
  const root = parseFragment(renderGfm(markdown)) as Node;
  const all: Element[] = [];
  const walk = (node: Node) => {
    if ('tagName' in node) all.push(node as Element);
    if ('childNodes' in node) for (const child of node.childNodes) walk(child);
  };
  walk(root);
  const text = (element: Element) => textOf(element).replace(/\s+/g, ' ').trim();
  const paragraphs = all.filter((element) => element.tagName === 'p').map(text);
  const counts: Record<string, number> = {};
  for (const part of (paragraphs[0] ?? '').split(' · ')) {
    const match = /^([\d,]+) (\S+)(?: \(([\d,]+) (flaky|quarantined)\))?$/.exec(part);
    if (!match || /^(ms|s|min|h)$/.test(match[2]!)) continue;
    counts[match[2]!] = Number(match[1]!.replace(/,/g, ''));
    if (match[3]) counts[match[4]!] = Number(match[3].replace(/,/g, ''));
  }
  if (counts.test !== undefined) counts.tests = counts.test;
  const tables: ReadSummary['tables'] = {};
  for (const table of all.filter((element) => element.tagName === 'table')) {
    const inside: Element[] = [];
    const collect = (node: Node) => {
      if ('tagName' in node) inside.push(node as Element);
      if ('childNodes' in node) for (const child of node.childNodes) collect(child);
    };
    collect(table as Node);
    const headers = inside.filter((element) => element.tagName === 'th').map(text);
    const rows = inside
      .filter((element) => element.tagName === 'tr')
      .map((row) => {
        const cells = row.childNodes.filter(
          (cell): cell is Element => 'tagName' in cell && cell.tagName === 'td',
        );
        const link = cells[0]?.childNodes.find(
          (node): node is Element => 'tagName' in node && node.tagName === 'a',
        );
        return { cells: cells.map(text), href: link?.attrs.find((attr) => attr.name === 'href')?.value };
      })
      .filter((row) => row.cells.length > 0);
    tables[headers.at(-1) ?? ''] = rows;
  }
  const heading = all.find((element) => element.tagName === 'h3');
  return { heading: heading ? text(heading) : '', counts, tables, paragraphs: paragraphs.slice(1) };
}
