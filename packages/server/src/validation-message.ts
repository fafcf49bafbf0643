import type { FastifySchemaValidationError } from 'fastify';

/**
 * Turns the first schema error into one sentence that names the field by its path in
 * the body, e.g. `results/3/duration must be >= 0`, so a client author can find it.
 */
export function describeValidationError(errors: readonly FastifySchemaValidationError[]): string {
  const first = errors[0];
  if (!first) return 'body is invalid';
  const { keyword, instancePath, params } = first;
  switch (keyword) {
    case 'required':
      return `${fieldName(instancePath, params.missingProperty)} is required`;
    case 'additionalProperties':
      return `${fieldName(instancePath, params.additionalProperty)} is not an allowed field`;
    case 'enum':
      return `${fieldName(instancePath)} must be one of: ${(params.allowedValues as unknown[]).join(', ')}`;
    case 'minItems':
      return params.limit === 1
        ? `${fieldName(instancePath)} must not be empty`
        : `${fieldName(instancePath)} must have at least ${params.limit} items`;
    case 'minLength':
      return `${fieldName(instancePath)} must not be empty`;
    case 'pattern':
      return `${fieldName(instancePath)} must not be blank`;
    default:
      return `${fieldName(instancePath)} ${first.message ?? 'is invalid'}`;
  }
}

function fieldName(instancePath: string, child?: unknown): string {
  const segments = instancePath.split('/').filter((segment) => segment !== '');
  if (typeof child === 'string') segments.push(child);
  return segments.length > 0 ? segments.join('/') : 'body';
}
