/**
 * The spec does not say where create-run puts the new run's id, so we look where
 * services usually put it (docs/design.md, "Run id extraction"): well-known body fields, the same nested under
 * `data` or `run`, then the last segment of a `Location` header.
 */
const ID_FIELDS = ['id', 'runId', 'run_id', 'uuid'] as const;
const CONTAINERS = ['data', 'run'] as const;

export function extractRunId(
  body: unknown,
  location: string | undefined,
  runIdPath?: string,
): string | undefined {
  if (runIdPath) return asId(valueAtPath(body, runIdPath));
  const fromBody = idIn(body) ?? firstOf(CONTAINERS.map((key) => idIn(field(body, key))));
  return fromBody ?? idFromLocation(location);
}

function idIn(value: unknown): string | undefined {
  return firstOf(ID_FIELDS.map((key) => asId(field(value, key))));
}

function firstOf(values: (string | undefined)[]): string | undefined {
  return values.find((value) => value !== undefined);
}

function field(value: unknown, key: string): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  return Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}

function valueAtPath(value: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((current, key) => field(current, key), value);
}

function asId(value: unknown): string | undefined {
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function idFromLocation(location: string | undefined): string | undefined {
  if (!location) return undefined;
  const path = location.split(/[?#]/)[0] ?? '';
  const segment = path.split('/').filter(Boolean).pop();
  return segment ? asId(decodeSegment(segment)) : undefined;
}

/** A malformed escape (`%E0%A4%A`) is kept as it came rather than failing the run. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
