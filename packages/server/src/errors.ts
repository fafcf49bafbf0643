/** An error answered as `{ error: { code, message } }` with its HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ErrorBody {
  error: { code: string; message: string };
}

export function errorBody(code: string, message: string): ErrorBody {
  return { error: { code, message } };
}

export function runNotFound(runId: string): ApiError {
  return new ApiError(404, 'run_not_found', `run ${JSON.stringify(runId.slice(0, 100))} does not exist`);
}
