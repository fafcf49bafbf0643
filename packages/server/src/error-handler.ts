import type { FastifyError } from 'fastify';
import { ApiError } from './errors.js';
import { describeValidationError } from './validation-message.js';

/** Maps anything thrown while handling a request to the error answered for it. */
export function toApiError(thrown: unknown, maxBodyBytes: number): ApiError {
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
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return new ApiError(status, 'bad_request', error.message);
  return new ApiError(500, 'internal_error', `internal error: ${error.message}`);
}
