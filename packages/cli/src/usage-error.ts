/** A mistake in how the command was called: reported with the usage, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Runs node:util parseArgs (or anything else that rejects bad arguments) turning its errors into UsageErrors. */
export function asUsageError<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
