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
