import type { FastifyError, FastifyInstance, FastifySchemaValidationError } from 'fastify';
import { renderNotFoundPage } from './pages/not-found-page.js';
import { isApiRequest, pathOf } from './paths.js';

/** An error answered as `{ error: { code, message } }` with its HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
    /** Fields beside code and message that a client can act on (a 413's limit). */
    readonly more: Record<string, number | string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ErrorBody {
  error: { code: string; message: string; [more: string]: number | string };
}

export function errorBody(
  code: string,
  message: string,
  more: Record<string, number | string> = {},
): ErrorBody {
  return { error: { code, message, ...more } };
}

export function runNotFound(runId: string): ApiError {
  return new ApiError(404, 'run_not_found', `run ${JSON.stringify(runId.slice(0, 100))} does not exist`);
}

/**
 * Every error, and every API path that matches no route, is answered in the error shape; a
 * browser asking for any other unknown path (Accept: text/html) gets a page that says so.
 */
export function registerErrorAnswers(app: FastifyInstance, maxBodyBytes: number): void {
  app.setErrorHandler((error, _request, reply) => {
    const apiError = toApiError(error, maxBodyBytes);
    return reply
      .code(apiError.status)
      .headers(apiError.headers)
      .send(errorBody(apiError.code, apiError.message, apiError.more));
  });
  app.setNotFoundHandler((request, reply) => {
    const path = pathOf(request.url);
    if (!isApiRequest(undefined, request.url) && acceptsHtml(request.headers.accept)) {
      return reply.code(404).type('text/html; charset=utf-8').send(renderNotFoundPage(path));
    }
    return reply.code(404).send(errorBody('not_found', `no route for ${request.method} ${path}`));
  });
}

/** Whether an Accept header names HTML, as every browser's navigation does; a bare HTTP client sends none, or any type. */
function acceptsHtml(accept: string | undefined): boolean {
  return accept !== undefined && /(^|,)\s*text\/html\s*(;|,|$)/i.test(accept);
}

/** Maps anything thrown while handling a request to the error answered for it. */
function toApiError(thrown: unknown, maxBodyBytes: number): ApiError {
  if (thrown instanceof ApiError) return thrown;
  const error = (thrown instanceof Error ? thrown : new Error(String(thrown))) as Partial<FastifyError> &
    Error;
  if (error.validation)
    return new ApiError(400, 'invalid_request', describeValidationError(error.validation));
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(
        413,
        'body_too_large',
        `request body exceeds this server's limit of ${maxBodyBytes} bytes`,
      );
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(415, 'unsupported_media_type', 'Content-Type must be application/json');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError(400, 'invalid_request', 'request body length does not match Content-Length');
  }
  if (isDiskFull(error)) {
    return new ApiError(
      507,
      'storage_full',
      "the server's disk is full: nothing of this request was stored; free space where its data is kept, then retry",
    );
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return new ApiError(status, 'bad_request', error.message);
  return new ApiError(500, 'internal_error', `internal error: ${error.message}`);
}

/** The database could not write for want of space (SQLite's SQLITE_FULL, PostgreSQL's 53100, ENOSPC). */
export function isDiskFull(error: Error & { code?: unknown }): boolean {
  return (
    error.code === 'ENOSPC' ||
    error.code === '53100' ||
    /database or disk is full|no space left on device/i.test(error.message)
  );
}

/**
 * Turns the first schema error into one sentence that names the field by its path in
 * the body, e.g. `results/3/duration must be >= 0`, so a client author can find it.
 */
function describeValidationError(errors: readonly FastifySchemaValidationError[]): string {
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
