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
}

/** A result as the server stores and returns it. */
export interface StoredResult extends ResultInput {
  runId: string;
}
