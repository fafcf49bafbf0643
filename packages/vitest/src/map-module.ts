import type {
  CanonicalStatus,
  FileReport,
  FrameworkProject,
  RawAttachment,
  RawFailure,
  RawTest,
} from '@testrun/core';
import type { TestCase, TestModule, TestProject, TestSuite } from 'vitest/node';

/**
 * One test file's tests as core takes them; core names them (see "How tests map to results"
 * in the README). `merged`: the module comes from blob reports (`--merge-reports`), not from
 * a run. `unfinished`: the file is still running (the process is being cancelled), so only
 * the tests that ended are taken, and nothing is said about the file as a whole.
 */
export function mapTestModule(
  module: TestModule,
  {
    merged = false,
    unfinished = false,
    output,
  }: {
    merged?: boolean;
    unfinished?: boolean;
    /** What each test printed (its last 64 KB), by the test's id: attached to it. */
    output?: (testId: string) => RawAttachment[] | undefined;
  } = {},
): FileReport {
  const tests: RawTest[] = [];
  for (const test of module.children.allTests()) {
    if (unfinished && test.result().state === 'pending') continue;
    const status = statusOf(test, merged);
    const diagnostic = test.diagnostic();
    tests.push({
      titles: [...describeTitles(test), test.name],
      status,
      duration: diagnostic?.duration ?? 0,
      failure: status === 'failed' ? failureOf(test) : undefined,
      // `retry` in the config or the test's options: passed on its second attempt or later.
      attempts: status === 'passed' && diagnostic?.retryCount ? diagnostic.retryCount + 1 : undefined,
      attachments: attachmentsOf(test, output?.(test.id)),
    });
  }
  return {
    file: module.moduleId,
    project: frameworkProject(module.project),
    variant: isTypecheckOfRuntimeFile(module) ? 'typecheck' : undefined,
    tests,
    failedOutsideTests: !unfinished && moduleFailed(module),
    failure: unfinished ? undefined : { errors: module.errors() },
  };
}

/**
 * What the test attached: each `annotate` attachment (Vitest 3.2+: a file Vitest copied into
 * its attachments folder, or a body), each artifact's (Vitest 4: visual regressions' reference,
 * actual and diff), and what it printed. Named by the annotation's message; core keeps them as
 * the `attachments` option says.
 */
function attachmentsOf(test: TestCase, printed: RawAttachment[] | undefined): RawAttachment[] | undefined {
  const attached: RawAttachment[] = [];
  // Both are newer than some Vitest the adapter supports (3.2 has annotations, 4 artifacts).
  const readable = test as unknown as {
    annotations?: () => ReadonlyArray<{ message?: string; attachment?: VitestAttachment }>;
    artifacts?: () => ReadonlyArray<{
      type?: string;
      attachments?: (VitestAttachment & { name?: string })[];
    }>;
  };
  for (const annotation of readable.annotations?.() ?? []) {
    if (annotation.attachment) attached.push(rawAttachment(annotation.attachment, annotation.message));
  }
  for (const artifact of readable.artifacts?.() ?? []) {
    // The annotations' own artifacts are read above, as annotations.
    if (artifact.type === 'internal:annotation') continue;
    for (const attachment of artifact.attachments ?? [])
      attached.push(rawAttachment(attachment, attachment.name));
  }
  if (printed) attached.push(...printed);
  return attached.length > 0 ? attached : undefined;
}

interface VitestAttachment {
  contentType?: string;
  path?: string;
  body?: string | Uint8Array;
  /** A string body is base64 unless this says `utf-8`. */
  bodyEncoding?: 'base64' | 'utf-8';
}

function rawAttachment(attachment: VitestAttachment, name: string | undefined): RawAttachment {
  const { contentType, path, body, bodyEncoding } = attachment;
  const bytes = typeof body === 'string' && bodyEncoding !== 'utf-8' ? Buffer.from(body, 'base64') : body;
  return { name, contentType, path, body: bytes };
}

/**
 * Whether the module is Vitest's type checking of a file that also runs as usual
 * (`typecheck.include` overlapping `include`): its tests then carry the same titles as the
 * runtime ones and need telling apart. Type-only files (`*.test-d.ts`) keep their names.
 */
function isTypecheckOfRuntimeFile(module: TestModule): boolean {
  if ((module.meta() as { typecheck?: unknown }).typecheck !== true) return false;
  const project = module.project as TestProject & { matchesTestGlob?: (moduleId: string) => boolean };
  return project.matchesTestGlob?.(module.moduleId) ?? true;
}

/** A Vitest project as core takes it: its name (empty for the root project) and its root. */
export function frameworkProject(project: TestProject): FrameworkProject {
  return { name: project.name || undefined, root: project.config.root };
}

/** Names of the enclosing describe blocks, outermost first (names, not fullName, which joins with '>'). */
function describeTitles(test: TestCase): string[] {
  const titles: string[] = [];
  for (let parent = test.parent; parent.type === 'suite'; parent = parent.parent) {
    titles.unshift(parent.name);
  }
  return titles;
}

function statusOf(test: TestCase, merged: boolean): CanonicalStatus {
  if (test.options.mode === 'todo') return 'todo';
  const { state } = test.result();
  if (state === 'passed' || state === 'failed') return state;
  // Vitest skips the tests under a failed beforeAll, where Jest fails them; a test that was
  // meant to run and could not because its block failed is a failure in both adapters.
  if (state === 'skipped' && isMeantToRun(test, merged) && blockFailed(test)) return 'failed';
  return 'skipped';
}

/**
 * Whether the test was to run: its mode as collected. A blob holds tests as they ended,
 * where the runner has set every test under a failed block to mode 'skip': there, a test
 * skipped on purpose (`it.skip`, `it.todo` inside a block whose beforeAll threw) can no longer be
 * told from one the failure skipped, and counts as meant to run.
 */
function isMeantToRun(test: TestCase, merged: boolean): boolean {
  return merged || test.options.mode === 'run' || test.options.mode === 'only';
}

/** Whether a describe block around the test, or its file, failed outside of any test. */
function blockFailed(test: TestCase): boolean {
  for (let parent: TestSuite | TestModule = test.parent; ; parent = parent.parent) {
    if (parent.errors().length > 0) return true;
    if (parent.type === 'module') return false;
  }
}

/**
 * What Vitest says about a failed test: its errors (a test skipped because its block failed
 * has none of its own: its block's), and how often it ran. Core finds the line in the stack.
 */
function failureOf(test: TestCase): RawFailure {
  const own = test.result().errors ?? [];
  const diagnostic = test.diagnostic();
  return {
    errors: own.length > 0 ? own : blockErrors(test),
    attempts: diagnostic ? diagnostic.retryCount + 1 : undefined,
  };
}

function blockErrors(test: TestCase): readonly unknown[] {
  for (let parent: TestSuite | TestModule = test.parent; ; parent = parent.parent) {
    if (parent.errors().length > 0) return parent.errors();
    if (parent.type === 'module') return [];
  }
}

function moduleFailed(module: TestModule): boolean {
  return module.errors().length > 0 || module.state() === 'failed';
}
