import type { GherkinChild, GherkinDocument, Pickle, TestCase } from './messages.js';

// Where a scenario and its steps stand in their feature file, for a failure's `file:line`:
// a failed scenario's stack is its step definition's (JavaScript), so the line a reader looks
// for — the step that failed, else the scenario or example row — comes from the messages.
// And each step as written, for the message of a step no definition matched or that is pending.

export class FeatureLines {
  /** The line of each scenario, example row and step (a Background's too) of the feature files, by its id. */
  private readonly nodeLines = new Map<string, number>();
  /** Where each pickle is declared (a scenario, or an outline's example row). */
  private readonly declared = new Map<string, number>();
  /** The feature file line of each pickle step. */
  private readonly pickleStepLines = new Map<string, number>();
  /** The feature file line of each test step that runs a pickle step (hooks have none). */
  private readonly testStepLines = new Map<string, number>();
  /** The keyword of each step of the feature files, by its id. */
  private readonly keywords = new Map<string, string>();
  /** Each pickle step as written: keyword and text. */
  private readonly pickleStepTexts = new Map<string, string>();
  /** Each test step that runs a pickle step, as written. */
  private readonly testStepTexts = new Map<string, string>();

  addDocument(document: GherkinDocument): void {
    const add = (node: { id?: string; location?: { line?: number } }) => {
      if (node.id && node.location?.line) this.nodeLines.set(node.id, node.location.line);
    };
    const visit = (children: readonly GherkinChild[] | undefined) => {
      for (const child of children ?? []) {
        const { background, scenario } = child;
        if (scenario) add(scenario);
        for (const step of [...(background?.steps ?? []), ...(scenario?.steps ?? [])]) {
          add(step);
          if (step.id && step.keyword) this.keywords.set(step.id, step.keyword.trim());
        }
        for (const row of (scenario?.examples ?? []).flatMap((examples) => examples.tableBody ?? []))
          add(row);
        visit(child.rule?.children);
      }
    };
    visit(document.feature?.children);
  }

  addPickle(pickle: Pickle): void {
    if (!pickle.id) return;
    // An example row's line, else its scenario's (a pickle's own location is Cucumber 12+ only).
    const [scenarioId = '', rowId = ''] = pickle.astNodeIds ?? [];
    const declared = this.nodeLines.get(rowId) ?? this.nodeLines.get(scenarioId) ?? pickle.location?.line;
    if (declared) this.declared.set(pickle.id, declared);
    for (const step of pickle.steps ?? []) {
      const line = this.nodeLines.get(step.astNodeIds?.[0] ?? '');
      if (step.id && line) this.pickleStepLines.set(step.id, line);
      const keyword = this.keywords.get(step.astNodeIds?.[0] ?? '');
      if (step.id && step.text)
        this.pickleStepTexts.set(step.id, keyword ? `${keyword} ${step.text}` : step.text);
    }
  }

  addTestCase(testCase: TestCase): void {
    for (const step of testCase.testSteps ?? []) {
      const line = this.pickleStepLines.get(step.pickleStepId ?? '');
      if (step.id && line) this.testStepLines.set(step.id, line);
      const text = this.pickleStepTexts.get(step.pickleStepId ?? '');
      if (step.id && text) this.testStepTexts.set(step.id, text);
    }
  }

  /** The line a pickle is declared on: its scenario's, or its example row's. */
  declaredLine(pickleId: string | undefined): number | undefined {
    return this.declared.get(pickleId ?? '');
  }

  /** The line of the step a test step runs; undefined for a hook. */
  stepLine(testStepId: string | undefined): number | undefined {
    return this.testStepLines.get(testStepId ?? '');
  }

  /** The step a test step runs, as written (`When I pay later`); undefined for a hook. */
  stepText(testStepId: string | undefined): string | undefined {
    return this.testStepTexts.get(testStepId ?? '');
  }
}
