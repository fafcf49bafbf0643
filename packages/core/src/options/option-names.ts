import { OPTION_NAMES } from './option-specs.js';

// What is said of a name that is no option, wherever names are given: a reporter's options
// object, Mocha's reporter options, a command's flags.

/** What to say of `name`, which is no option: the option it most likely means, else every option. */
export function unknownOptionMessage(name: string): string {
  const hint = nearestName(name, OPTION_NAMES);
  return `unknown option "${name}"${hint ? `; did you mean "${hint}"?` : `. Known options: ${OPTION_NAMES.join(', ')}.`}`;
}

/**
 * The name of `names` a misspelling most likely means: the nearest by edit distance, ignoring
 * case, if near enough. Near enough is at most a quarter of the name (at least 2), and less
 * than half the shorter name: `cdn` (a Mocha reporter's option) is not a misspelt `ca`.
 */
export function nearestName(name: string, names: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const candidate of names) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (!best || distance < best.distance) best = { name: candidate, distance };
  }
  if (!best) return undefined;
  const shorter = Math.min(name.length, best.name.length);
  return best.distance <= Math.max(2, Math.floor(name.length / 4)) && best.distance * 2 < shorter
    ? best.name
    : undefined;
}

/** Levenshtein distance. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}
