import type { JunitHead } from './read-junit.js';

/** The run's framework when the reports do not say which wrote them. */
export const DEFAULT_FRAMEWORK = 'junit';

const GRADLE_SUITE_ATTRIBUTES = 'name tests skipped failures errors timestamp hostname time';

/** How well-known writers mark their reports, looked for in the root element and the first <testsuite>. */
const SIGNATURES: { framework: string; matches(head: JunitHead): boolean }[] = [
  { framework: 'vitest', matches: ({ root }) => root.attributes.name === 'vitest tests' },
  { framework: 'jest', matches: ({ root }) => root.attributes.name === 'jest tests' },
  { framework: 'mocha', matches: ({ root }) => root.attributes.name === 'Mocha Tests' },
  { framework: 'pytest', matches: ({ firstSuite }) => firstSuite?.attributes.name === 'pytest' },
  {
    // Gradle writes one report per class, its root <testsuite> with these attributes in this order.
    framework: 'gradle',
    matches: ({ root }) =>
      root.name === 'testsuite' && Object.keys(root.attributes).join(' ') === GRADLE_SUITE_ATTRIBUTES,
  },
  {
    // Maven Surefire and Failsafe point at their schema.
    framework: 'surefire',
    matches: ({ root, firstSuite }) =>
      [root, firstSuite].some((tag) =>
        /maven-(?:surefire|failsafe)-plugin/.test(tag?.attributes['xsi:noNamespaceSchemaLocation'] ?? ''),
      ),
  },
];

/** The framework one report says it comes from, if it says. */
export function detectFramework(head: JunitHead): string | undefined {
  return SIGNATURES.find((signature) => signature.matches(head))?.framework;
}

/** What every report agrees on, else `junit`: a run has one framework. */
export function chooseFramework(detected: readonly (string | undefined)[]): string {
  const [first] = detected;
  return first !== undefined && detected.every((framework) => framework === first)
    ? first
    : DEFAULT_FRAMEWORK;
}
