// Part of the build: an esbuild plugin that leaves a bundle's text pure ASCII. esbuild escapes
// every non-ASCII character of the code (its default charset), but copies comments as they
// are, and one arrow or emoji in a comment makes V8 hold and scan the whole file as two-byte
// text: ~1 ms more of every run's CPU to read core's bundles, measured. Such a character, in a
// comment by then, is written as its `\u{…}` code instead.
import fs from 'node:fs';
import path from 'node:path';

export const asciiOnly = {
  name: 'ascii-only',
  setup(build) {
    build.initialOptions.metafile = true;
    build.onEnd((result) => {
      const cwd = build.initialOptions.absWorkingDir ?? process.cwd();
      for (const output of Object.keys(result.metafile?.outputs ?? {})) {
        if (!output.endsWith('.js')) continue;
        const file = path.resolve(cwd, output);
        const text = fs.readFileSync(file, 'utf8');
        const ascii = text.replace(
          /[^\x00-\x7f]/gu,
          (character) => `\\u{${character.codePointAt(0).toString(16)}}`,
        );
        if (ascii !== text) fs.writeFileSync(file, ascii);
      }
    });
  },
};
