// JSON schemas of the two request bodies. additionalProperties is false everywhere:
// a client sending a field the spec does not have is a mistake this server reports.

const nonBlankString = { type: 'string', minLength: 1, pattern: '\\S' } as const;

export const runBodySchema = {
  type: 'object',
  required: ['project', 'framework'],
  additionalProperties: false,
  properties: {
    project: nonBlankString,
    framework: nonBlankString,
    tags: { type: 'array', items: { type: 'string' } },
  },
} as const;

export function resultsBodySchema(statuses: readonly string[]) {
  return {
    type: 'object',
    required: ['results'],
    additionalProperties: false,
    properties: {
      results: {
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          required: ['testSuite', 'testCase', 'status', 'duration'],
          additionalProperties: false,
          properties: {
            testSuite: { type: 'string' },
            testCase: { type: 'string' },
            status: { type: 'string', enum: [...statuses] },
            duration: { type: 'number', minimum: 0 },
          },
        },
      },
    },
  } as const;
}
