// Several capabilities (browser configurations) run the same spec files: their results are
// told apart as Vitest's and Playwright's projects are, by a `[label] ` before testSuite when
// the configuration has more than one (core's projectLabel rule, `'auto'` by default).

/** Set by the launcher service for the workers: the labels of the configuration's capabilities, in order, as JSON. */
export const CAPABILITY_LABELS_VAR = 'TESTRUN_WDIO_CAPABILITIES';

/**
 * Each capability's label: its browserName (`chrome`), or `browser` without one; a name
 * that an earlier capability has already gets its position after a dash (`chrome-2`), so the
 * label is stable while the list keeps its order.
 */
export function capabilityLabels(capabilities: unknown): string[] {
  const list = Array.isArray(capabilities) ? capabilities : [];
  const seen = new Set<string>();
  return list.map((capability, index) => {
    const caps = (capability ?? {}) as Record<string, unknown>;
    const name =
      typeof caps.browserName === 'string' && caps.browserName.trim() ? caps.browserName.trim() : 'browser';
    const label = seen.has(name) ? `${name}-${index + 1}` : name;
    seen.add(name);
    return label;
  });
}

/** The capability a worker runs: the first number of its id (WDIO_WORKER_ID `1-0` is capability 1's first worker). */
export function capabilityIndex(workerId: string | undefined): number {
  const index = Number.parseInt(workerId ?? '', 10);
  return Number.isInteger(index) && index >= 0 ? index : 0;
}

/** The labels the launcher handed down, or none (no launcher service: one project, unlabelled). */
export function labelsFromEnv(env: NodeJS.ProcessEnv): string[] {
  try {
    const labels = JSON.parse(env[CAPABILITY_LABELS_VAR] ?? '[]') as unknown;
    return Array.isArray(labels) ? labels.map(String) : [];
  } catch {
    return [];
  }
}
