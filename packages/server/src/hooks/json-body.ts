import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.js';

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
