import { ApiError } from './errors.js';

const challenge = { 'www-authenticate': 'Bearer' };

/**
 * Checks an Authorization header against the accepted keys. Messages never repeat
 * the header: a key sent to the wrong server must not end up in its answers or logs.
 */
export function checkBearer(header: string | undefined, apiKeys: ReadonlySet<string>): ApiError | undefined {
  if (header === undefined || header === '') {
    return unauthorized('missing Authorization header: send "Authorization: Bearer <API key>"');
  }
  const match = /^Bearer ([^\s]+)$/i.exec(header);
  if (!match) return unauthorized('the Authorization header must be "Bearer <API key>"');
  if (!apiKeys.has(match[1] as string)) return unauthorized('the API key is not valid for this server');
  return undefined;
}

function unauthorized(message: string): ApiError {
  return new ApiError(401, 'unauthorized', message, challenge);
}
