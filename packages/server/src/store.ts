import type { StoredResult, StoredRun } from './model.js';
import type { ResultsAccepted, RunCreated } from './records.js';

/** Read access to what the server has accepted. Arrays are copies, in arrival order. */
export interface Store {
  /** All runs, oldest first. */
  runs(): StoredRun[];
  run(id: string): StoredRun | undefined;
  /** The results of one run; empty for an unknown run. */
  results(runId: string): StoredResult[];
  /** Every result of every run. */
  allResults(): StoredResult[];
}

export class MemoryStore implements Store {
  readonly #runs = new Map<string, StoredRun>();
  readonly #resultsByRun = new Map<string, StoredResult[]>();
  readonly #allResults: StoredResult[] = [];

  apply(record: RunCreated | ResultsAccepted): void {
    if (record.type === 'run') {
      this.#runs.set(record.run.id, record.run);
      this.#resultsByRun.set(record.run.id, []);
      return;
    }
    const runResults = this.#resultsByRun.get(record.runId);
    if (!runResults) throw new Error(`results for unknown run ${record.runId}`);
    for (const { testSuite, testCase, status, duration } of record.results) {
      const result = { runId: record.runId, testSuite, testCase, status, duration };
      runResults.push(result);
      this.#allResults.push(result);
    }
  }

  runs(): StoredRun[] {
    return [...this.#runs.values()];
  }

  run(id: string): StoredRun | undefined {
    return this.#runs.get(id);
  }

  results(runId: string): StoredResult[] {
    return [...(this.#resultsByRun.get(runId) ?? [])];
  }

  allResults(): StoredResult[] {
    return [...this.#allResults];
  }
}
