import fs from 'node:fs';
import path from 'node:path';
import type { SerializedError, TestModule, TestRunEndReason, TestSpecification } from 'vitest/node';

// The TestModule objects Vitest handed a reporter, revived from what
// fixtures/recorded/recording-reporter.mjs wrote down: each method answers what it answered
// then, and parents, children and the module are linked again as Vitest links them.

const recorded = path.join(import.meta.dirname, 'fixtures', 'recorded');
/** Where the recorded project is on this machine: its files' paths in the recording are under it. */
export const RECORDED_PROJECT = path.join(recorded, 'project');

interface RecordedModule {
  moduleId: string;
  project: { name: string; config: { root: string }; matchesTestGlob: boolean | undefined };
  state: string;
  errors: unknown[];
  meta: Record<string, unknown>;
  ok: boolean;
  diagnostic: unknown;
  children: RecordedChild[];
}

type RecordedChild =
  | ({ type: 'suite'; state: string; errors: unknown[]; children: RecordedChild[] } & RecordedTask)
  | ({ type: 'test'; result: unknown; diagnostic: unknown } & RecordedTask);

interface RecordedTask {
  id: string;
  name: string;
  meta: Record<string, unknown>;
  ok: boolean;
}

interface Recording {
  framework: 'vitest';
  version: string;
  /** What onTestRunStart got, of each TestSpecification: its module and project. */
  specifications: { moduleId: string; project: { name: string; config: { root: string } } }[];
  modules: RecordedModule[];
  unfinished?: RecordedModule;
  /** What onTestRunEnd got besides the modules. */
  unhandledErrors: SerializedError[];
  reason: TestRunEndReason;
}

/** run.json (a run as usual) or merged.json (`--merge-reports` of the same run's blob). */
export function recording(name: 'run' | 'merged'): {
  version: string;
  specifications: TestSpecification[];
  modules: TestModule[];
  unfinished: TestModule | undefined;
  unhandledErrors: SerializedError[];
  reason: TestRunEndReason;
} {
  const text = fs
    .readFileSync(path.join(recorded, `${name}.json`), 'utf8')
    .replaceAll('<project>', RECORDED_PROJECT)
    .replaceAll('<repo>', path.resolve(recorded, '../../../../..'));
  const { version, specifications, modules, unfinished, unhandledErrors, reason } = JSON.parse(
    text,
  ) as Recording;
  return {
    version,
    specifications: specifications as unknown as TestSpecification[],
    modules: modules.map(reviveModule),
    unfinished: unfinished && reviveModule(unfinished),
    unhandledErrors,
    reason,
  };
}

/** The module of the recorded test file `name` (relative to the project). */
export function moduleNamed(modules: readonly TestModule[], name: string): TestModule {
  const module = modules.find((candidate) => candidate.moduleId === path.join(RECORDED_PROJECT, name));
  if (!module) throw new Error(`no recorded module ${name}`);
  return module;
}

function reviveModule(data: RecordedModule): TestModule {
  const { children, project, state, errors, meta, ok, diagnostic, ...fields } = data;
  const module: Record<string, unknown> = {
    ...fields,
    project: {
      ...project,
      matchesTestGlob: (moduleId: string) => moduleId === data.moduleId && project.matchesTestGlob,
    },
    state: () => state,
    errors: () => errors,
    meta: () => meta,
    ok: () => ok,
    diagnostic: () => diagnostic,
  };
  module.children = collection(children.map((child) => reviveChild(child, module, module)));
  return module as unknown as TestModule;
}

function reviveChild(data: RecordedChild, parent: object, module: object): object {
  const { meta, ok } = data;
  const common = {
    module,
    parent,
    project: (module as { project: unknown }).project,
    meta: () => meta,
    ok: () => ok,
  };
  if (data.type === 'test') {
    const { result, diagnostic, ...fields } = data;
    return { ...fields, ...common, result: () => result, diagnostic: () => diagnostic };
  }
  const { children, state, errors, ...fields } = data;
  const suite: Record<string, unknown> = { ...fields, ...common, state: () => state, errors: () => errors };
  suite.children = collection(children.map((child) => reviveChild(child, suite, module)));
  return suite;
}

type Entity = { type: string; children?: Collection; result?: () => { state: string } };
type Collection = ReturnType<typeof collection>;

/** Vitest's TestCollection: a suite's or module's children, and the walks over them. */
function collection(children: object[]) {
  const entities = children as Entity[];
  const self = {
    size: entities.length,
    at: (index: number) => entities.at(index),
    array: () => [...entities],
    [Symbol.iterator]: () => entities[Symbol.iterator](),
    *tests(state?: string): Generator<Entity> {
      for (const child of entities) {
        if (child.type === 'test' && (!state || child.result!().state === state)) yield child;
      }
    },
    *allTests(state?: string): Generator<Entity> {
      for (const child of entities) {
        if (child.type === 'suite') yield* child.children!.allTests(state);
        else if (!state || child.result!().state === state) yield child;
      }
    },
    *suites(): Generator<Entity> {
      for (const child of entities) if (child.type === 'suite') yield child;
    },
    *allSuites(): Generator<Entity> {
      for (const child of entities) {
        if (child.type !== 'suite') continue;
        yield child;
        yield* child.children!.allSuites();
      }
    },
  };
  return self;
}
