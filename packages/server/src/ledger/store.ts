/** A run as the server stores and returns it. */
export interface StoredRun {
  id: string;
  project: string;
  framework: string;
  tags: string[];
  createdAt: string;
}

/** One result as submitted by a client, without the run it belongs to. */
export interface ResultInput {
  testSuite: string;
  testCase: string;
  status: string;
  duration: number;
  /** Why it failed: the `failure-details` extension, validated by the results route, stored as it came. */
  details?: FailureDetails;
}

/** The `failure-details` extension of a result (docs/design.md, "Why a test failed"). */
export interface FailureDetails {
  message?: string;
  stack?: string;
  /** `file:line[:column]`. */
  location?: string;
  attempts?: number;
}

/** A result as the server stores and returns it. */
export interface StoredResult extends ResultInput {
  runId: string;
}

/** How a run ended, as `PATCH /api/v1/runs/{id}` said. */
export type RunEndStatus = 'completed' | 'failed' | 'interrupted';

export interface RunEnd {
  status: RunEndStatus;
  endedAt: string;
}

/** A run with what its results add up to. */
export interface RunWithCounts extends StoredRun {
  /** How the run ended; absent while nobody said. */
  end?: RunEnd;
  /** When the run was created or last received results: what tells an abandoned run. */
  lastReceivedAt: string;
  /** Results by status: every allowed status (0 when none), plus any other stored status. */
  counts: Record<string, number>;
  total: number;
  totalDuration: number;
}

/** Read access to what the server has accepted. Arrays are copies, in arrival order. */
export interface Store {
  /** All runs, oldest first. */
  runs(): StoredRun[];
  run(id: string): StoredRun | undefined;
  /** The results of one run; empty for an unknown run. */
  results(runId: string): StoredResult[];
  /** Every result of every run. */
  allResults(): StoredResult[];
  /** How the run ended (`PATCH /api/v1/runs/{id}`); undefined while nobody said. */
  endOf(runId: string): RunEnd | undefined;
}

/** What a run's results add up to, kept as they arrive so that listing runs never re-reads results. */
interface Tally {
  /** Statuses in the order they first arrived. */
  byStatus: Map<string, number>;
  total: number;
  totalDuration: number;
}

export class MemoryStore implements Store {
  readonly #runs = new Map<string, StoredRun>();
  readonly #resultsByRun = new Map<string, StoredResult[]>();
  readonly #tallies = new Map<string, Tally>();
  readonly #allResults: StoredResult[] = [];
  readonly #ends = new Map<string, RunEnd>();
  readonly #lastReceived = new Map<string, string>();

  addRun(run: StoredRun): void {
    this.#runs.set(run.id, run);
    this.#resultsByRun.set(run.id, []);
    this.#tallies.set(run.id, { byStatus: new Map(), total: 0, totalDuration: 0 });
  }

  /** `receivedAt`: absent in data files written before runs had states. */
  addResults(runId: string, results: readonly ResultInput[], receivedAt?: string): void {
    const runResults = this.#resultsByRun.get(runId);
    const tally = this.#tallies.get(runId);
    if (!runResults || !tally) throw new Error(`results for unknown run ${runId}`);
    if (receivedAt !== undefined) this.#lastReceived.set(runId, receivedAt);
    for (const { testSuite, testCase, status, duration, details } of results) {
      const result: StoredResult = { runId, testSuite, testCase, status, duration };
      if (details !== undefined) result.details = details;
      runResults.push(result);
      this.#allResults.push(result);
      tally.byStatus.set(status, (tally.byStatus.get(status) ?? 0) + 1);
      tally.total += 1;
      tally.totalDuration += duration;
    }
  }

  endRun(runId: string, end: RunEnd): void {
    if (!this.#runs.has(runId)) throw new Error(`end of unknown run ${runId}`);
    this.#ends.set(runId, end);
  }

  /** How the run ended, once it was said. */
  endOf(runId: string): RunEnd | undefined {
    return this.#ends.get(runId);
  }

  runs(): StoredRun[] {
    return [...this.#runs.values()];
  }

  /** How many runs there are: runs().length, without copying them. */
  get runCount(): number {
    return this.#runs.size;
  }

  run(id: string): StoredRun | undefined {
    return this.#runs.get(id);
  }

  results(runId: string): StoredResult[] {
    return [...this.resultsOf(runId)];
  }

  allResults(): StoredResult[] {
    return [...this.#allResults];
  }

  /** The results of one run as stored, not copied: for reading only. */
  resultsOf(runId: string): readonly StoredResult[] {
    return this.#resultsByRun.get(runId) ?? [];
  }

  /** A run with its counts: every allowed status in their order (0 when none), then any other stored status. */
  withCounts(run: StoredRun, statuses: readonly string[]): RunWithCounts {
    const tally = this.#tallies.get(run.id);
    const counts: Record<string, number> = Object.fromEntries(statuses.map((status) => [status, 0]));
    for (const [status, count] of tally?.byStatus ?? []) counts[status] = (counts[status] ?? 0) + count;
    const end = this.#ends.get(run.id);
    return {
      ...run,
      ...(end ? { end } : {}),
      lastReceivedAt: this.#lastReceived.get(run.id) ?? run.createdAt,
      counts,
      total: tally?.total ?? 0,
      totalDuration: tally?.totalDuration ?? 0,
    };
  }
}
