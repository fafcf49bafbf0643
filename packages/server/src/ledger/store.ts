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
  /**
   * Why it failed, or, on a passed result, how many attempts it needed (a pass on a retry):
   * the `failure-details` extension, validated by the results route, stored as it came.
   */
  details?: FailureDetails;
  /**
   * The failure is a quarantined test's (the `quarantine` extension): it did not fail the
   * build. Sent only on a failed result, only to a server that announces quarantine.
   */
  quarantined?: boolean;
  /** The files the result names (the `attachments` extension), their bytes uploaded apart by hash. */
  attachments?: AttachmentRef[];
}

/** One file a result names (docs/design/attachments.md). */
export interface AttachmentRef {
  name: string;
  contentType: string;
  size: number;
  /** Lower-case hex SHA-256 of the bytes: `GET /api/v1/runs/{id}/attachments/{sha256}` reads them. */
  sha256: string;
  /** The test's attempt that made it, 1 for the first. */
  attempt?: number;
}

/** The `failure-details` extension of a result (docs/design/failure-details.md). */
export interface FailureDetails {
  message?: string;
  stack?: string;
  /** `file:line[:column]`. */
  location?: string;
  /** How many times the test ran in this result: on a passed result, 2 or more means it passed on a retry. */
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
  /** How many of its failed results were quarantined tests' (docs/design/quarantine.md); absent when none. */
  quarantined?: number;
  total: number;
  totalDuration: number;
}

/** An answer as sent, saved to replay for a retry with the same Idempotency-Key. */
export interface SavedResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** What an Idempotency-Key is scoped to: the same key on another method or path is another key. */
export interface IdempotencyScope {
  key: string;
  method: string;
  path: string;
}

/** An idempotent write's saved answer, with what its request's body hashed to. */
export interface IdempotentResponse extends IdempotencyScope {
  fingerprint: string;
  response: SavedResponse;
}

/** Read access to what the server has accepted, from the database: lists in arrival order. */
export interface Store {
  /** All runs, oldest first. */
  runs(): Promise<StoredRun[]>;
  run(id: string): Promise<StoredRun | undefined>;
  /** The results of one run; empty for an unknown run. */
  results(runId: string): Promise<StoredResult[]>;
  /** Every result of every run. */
  allResults(): Promise<StoredResult[]>;
  /** How the run ended (`PATCH /api/v1/runs/{id}`); undefined while nobody said. */
  endOf(runId: string): Promise<RunEnd | undefined>;
}
