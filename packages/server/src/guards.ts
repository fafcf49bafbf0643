import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors.js';
import type { AcceptedKeys } from './keys.js';
import { isApiRequest, paths } from './paths.js';

const methodsWithBody = new Set(['POST', 'PUT', 'PATCH']);
const challenge = { 'www-authenticate': 'Bearer' };

/**
 * The first checks on every /api/ request, in this order: bearer key (401), then JSON
 * content type on requests with a body (415). They run before the body is read, and
 * also for /api/ paths that match no route, so that nothing is revealed to a client
 * without a key. The route decides, not the raw URL: `/%61pi/v1/runs` is the API too.
 */
export function registerGuards(
  app: FastifyInstance,
  keys: { write: AcceptedKeys; read: AcceptedKeys },
): void {
  app.addHook('onRequest', async (request) => {
    if (!isApiRequest(request.routeOptions.url, request.url)) return;
    // A read key reads; every other method needs an API key.
    const reads = request.method === 'GET' || request.method === 'HEAD';
    const denied = checkBearer(request.headers.authorization, reads ? keys.read : keys.write);
    // A read key given to a writer (pasted into CI for TESTRUN_API_KEY) is told as such: "not
    // valid" sent people looking for a changed API key. Its holder may read anyway, so the
    // answer tells nobody more than a GET would.
    if (denied && !reads && checkBearer(request.headers.authorization, keys.read) === undefined) {
      throw new ApiError(
        403,
        'read_key_cannot_write',
        'this is a read key: it reads the API and the pages but writes nothing; send the API key to write',
      );
    }
    if (denied) throw denied;
    // An attached file's bytes are the one body that is not JSON (api/attachments.ts); a path
    // that matches no route is a 404, whatever its body (a PUT of a file to a server without the extension).
    if (request.method === 'PUT' && request.routeOptions.url === paths.runAttachment) return;
    if (request.routeOptions.url === undefined) return;
    if (methodsWithBody.has(request.method)) requireJson(request.headers['content-type']);
  });
}

/**
 * JSON is the only body this server reads. Fastify's size limit applies while reading
 * (413); a body that does not parse is a 400 with code `invalid_json`.
 */
export function registerJsonBody(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, JSON.parse(body as string));
    } catch (error) {
      done(new ApiError(400, 'invalid_json', `request body is not valid JSON: ${(error as Error).message}`));
    }
  });
}

/**
 * Checks an Authorization header against the accepted keys. Messages never repeat
 * the header: a key sent to the wrong server must not end up in its answers or logs.
 */
export function checkBearer(header: string | undefined, apiKeys: AcceptedKeys): ApiError | undefined {
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

function requireJson(contentType: string | undefined): void {
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
  if (mediaType === 'application/json') return;
  const got = contentType === undefined ? 'no Content-Type' : `"${contentType.slice(0, 100)}"`;
  throw new ApiError(415, 'unsupported_media_type', `Content-Type must be application/json, got ${got}`);
}
