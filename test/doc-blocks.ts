import fs from 'node:fs';
import path from 'node:path';

// The fenced code blocks of the user documentation, and the marker on the line before each
// (CONTRIBUTING.md#code-blocks-in-the-docs):
//   <!-- tested: <name> -->   a test takes this block by its name, `docBlock('<name>')`, and runs it
//   <!-- illustration -->     shown, not run (still parsed when it is JSON, JavaScript or TypeScript)
// test/documented-blocks.test.ts fails on a block without one, and on a name no test takes.

export const REPO = path.resolve(import.meta.dirname, '..');

/** README.md, every page under docs/ and every package's README, relative to the repository. */
export function documentationPages(): string[] {
  const packages = fs
    .readdirSync(path.join(REPO, 'packages'))
    .filter((name) => fs.existsSync(path.join(REPO, 'packages', name, 'README.md')));
  return [
    'README.md',
    ...(fs.readdirSync(path.join(REPO, 'docs'), { recursive: true }) as string[])
      .filter((file) => file.endsWith('.md'))
      .map((file) => `docs/${file}`),
    ...packages.map((name) => `packages/${name}/README.md`),
  ];
}

export interface DocBlock {
  /** The page, relative to the repository. */
  page: string;
  /** The line of the opening fence, from 1. */
  line: number;
  /** The fence's language: `ts`, `sh`, `json`, or '' when it names none. */
  language: string;
  /** What the line before the fence marks it as; undefined when it carries no marker. */
  marker: { kind: 'tested'; name: string } | { kind: 'illustration' } | undefined;
  /** The block's text without its fences and without the indentation of its fence (list items). */
  code: string;
}

const FENCE = /^( *)(`{3,})(.*)$/;
const MARKER = /^<!-- (?:tested: ([a-z0-9-]+)|(illustration)) -->$/;

/** Every fenced block of one page, in order. */
export function blocksOf(page: string): DocBlock[] {
  const lines = fs.readFileSync(path.join(REPO, page), 'utf8').split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, info] = open;
    const close = lines.findIndex(
      (text, j) => j > i && text.startsWith(indent!) && text.slice(indent!.length).trimEnd() === fence,
    );
    if (close === -1) throw new Error(`${page}:${i + 1}: a code block that is never closed`);
    const marked = MARKER.exec(lines[i - 1]?.trim() ?? '');
    blocks.push({
      page,
      line: i + 1,
      language: info!.trim().split(/\s+/)[0]!,
      marker: !marked
        ? undefined
        : marked[1]
          ? { kind: 'tested', name: marked[1] }
          : { kind: 'illustration' },
      code: `${lines
        .slice(i + 1, close)
        .map((text) => (text.startsWith(indent!) ? text.slice(indent!.length) : text.trimStart()))
        .join('\n')}\n`,
    });
    i = close;
  }
  return blocks;
}

/** Every fenced block of the documentation. */
export function documentationBlocks(): DocBlock[] {
  return documentationPages().flatMap(blocksOf);
}

/** The text of the block marked `<!-- tested: <name> -->`, exactly as the page shows it. */
export function docBlock(name: string): string {
  const found = documentationBlocks().filter(
    (block) => block.marker?.kind === 'tested' && block.marker.name === name,
  );
  if (found.length !== 1) {
    throw new Error(
      `${found.length} code blocks are marked <!-- tested: ${name} --> in the docs; expected 1`,
    );
  }
  return found[0]!.code;
}
