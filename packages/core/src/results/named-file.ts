/**
 * The file of `files` that `text` (an error's stack and message) names first, as any of the
 * forms `formsOf` gives for it: the adapters that get errors outside any test (Mocha's, Jasmine's)
 * hand such an error to the spec file it came from. Earliest in the text wins: a stack names
 * the throwing file before its callers.
 */
export function fileNamedFirst(
  text: string,
  files: Iterable<string>,
  formsOf: (file: string) => readonly string[] = (file) => [file],
): string | undefined {
  let found: { file: string; at: number } | undefined;
  for (const file of files) {
    for (const form of formsOf(file)) {
      const at = indexOfWhole(text, form);
      if (at !== -1 && (!found || at < found.at)) found = { file, at };
    }
  }
  return found?.file;
}

/** Where `text` names `file` as a whole path, not as part of a longer one (`a.test.js` in `a.test.jsx` or `xa.test.js`). */
function indexOfWhole(text: string, file: string): number {
  for (let at = text.indexOf(file); at !== -1; at = text.indexOf(file, at + 1)) {
    const before = text.slice(at - 1, at);
    const after = text.slice(at + file.length, at + file.length + 1);
    if (!/[\w./-]/.test(before) && !/[\w.-]/.test(after)) return at;
  }
  return -1;
}
