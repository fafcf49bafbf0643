import { EMPTY_NAME, TITLE_SEPARATOR } from '@testrun/core';
import type { GherkinChild, GherkinDocument, GherkinScenario, Pickle } from './messages.js';

// What a scenario is called: the titles core joins into testCase (docs/naming.md#cucumber).

/** Where a scenario stands in its feature file: the feature, the rule it is in (if any). */
interface ScenarioPlace {
  scenario: GherkinScenario;
  rule: string | undefined;
}

/**
 * Names the pickles (the scenarios and outline examples Cucumber will run) of each feature
 * file: the feature's name, the rule's, the scenario's as Cucumber prints it (an outline's
 * `<placeholders>` filled in), then for an outline's example `Example #2.1` (its Examples
 * block, then its row in that block, from 1: the numbering Cucumber's pretty formatter shows).
 * A name an earlier pickle of the same file already has gets ` (2)`, ` (3)`… after it, in the
 * order of the file: the repeat rule of `testrun upload` (docs/junit.md#repeats). Cucumber
 * announces every pickle of a file before any runs, in the file's order, whatever `--tags`,
 * `--order` or `--parallel` then do: the names are the same from run to run.
 */
export class ScenarioNames {
  private readonly places = new Map<string, Map<string, ScenarioPlace>>();
  private readonly features = new Map<string, string | undefined>();
  private readonly titles = new Map<string, { uri: string; titles: string[] }>();
  private readonly seen = new Map<string, number>();

  addDocument(document: GherkinDocument): void {
    if (!document.uri) return;
    const places = new Map<string, ScenarioPlace>();
    const visit = (children: readonly GherkinChild[] | undefined, rule: string | undefined) => {
      for (const child of children ?? []) {
        if (child.scenario?.id) places.set(child.scenario.id, { scenario: child.scenario, rule });
        if (child.rule) visit(child.rule.children, child.rule.name ?? '');
      }
    };
    visit(document.feature?.children, undefined);
    this.places.set(document.uri, places);
    this.features.set(document.uri, document.feature?.name);
  }

  addPickle(pickle: Pickle): void {
    if (!pickle.id || !pickle.uri) return;
    const [scenarioId, rowId] = pickle.astNodeIds ?? [];
    const place = scenarioId ? this.places.get(pickle.uri)?.get(scenarioId) : undefined;
    const titles = [this.features.get(pickle.uri) ?? ''];
    if (place?.rule !== undefined) titles.push(place.rule);
    titles.push(pickle.name ?? '');
    if (rowId && place) {
      const example = exampleOf(place.scenario, rowId);
      if (example) titles.push(example);
    }
    const key = `${pickle.uri}\n${titles.join(TITLE_SEPARATOR)}`;
    const n = (this.seen.get(key) ?? 0) + 1;
    this.seen.set(key, n);
    // A scenario without a name is `(unnamed)` (core's rule), so its repeats are `(unnamed) (2)`.
    const last = titles.at(-1) ?? '';
    if (n > 1) titles[titles.length - 1] = `${last.trim() === '' ? EMPTY_NAME : last} (${n})`;
    this.titles.set(pickle.id, { uri: pickle.uri, titles });
  }

  /** The feature file (as Cucumber names it, relative to its working directory) and titles of a pickle. */
  of(pickleId: string | undefined): { uri: string; titles: string[] } | undefined {
    return pickleId === undefined ? undefined : this.titles.get(pickleId);
  }
}

/** `Example #<block>.<row>`, both from 1, for the example row `rowId` of an outline. */
function exampleOf(scenario: GherkinScenario, rowId: string): string | undefined {
  const blocks = scenario.examples ?? [];
  for (const [b, block] of blocks.entries()) {
    const r = (block.tableBody ?? []).findIndex((row) => row.id === rowId);
    if (r !== -1) return `Example #${b + 1}.${r + 1}`;
  }
  return undefined;
}
