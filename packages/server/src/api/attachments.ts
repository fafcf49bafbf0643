import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance } from 'fastify';
import type { AttachmentLedger } from '../attachments/attachment-ledger.js';
import { sendFile } from '../attachments/serve-file.js';
import { ApiError, runNotFound } from '../errors.js';
import { paths } from '../paths.js';

// The attachments extension's one write and its read (docs/design/attachments.md):
//   PUT /api/v1/runs/{id}/attachments/{sha256}   the file's bytes (application/octet-stream)
//   GET /api/v1/runs/{id}/attachments/{sha256}   them again, with the read key
// A file is named by the SHA-256 of its bytes, so every retry and replay of an upload is the
// same request, a run has each file once, and the server keeps each file once.

const SHA256 = /^[0-9a-f]{64}$/;

export interface AttachmentLimits {
  maxFileBytes: number;
  maxRunBytes: number;
}

interface Params {
  id: string;
  sha256: string;
}

export function registerAttachments(
  app: FastifyInstance,
  ledger: AttachmentLedger,
  limits: AttachmentLimits,
): void {
  app.register(async (scope) => {
    // The bytes arrive as a stream, written to a file as they come: a file of 100 MB is never in memory.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    scope.put<{ Params: Params }>(paths.runAttachment, async (request, reply) => {
      const { id: runId, sha256 } = request.params;
      checkHash(sha256);
      const size = declaredLength(request.headers['content-length']);
      if (size > limits.maxFileBytes) throw tooLarge(sha256, size, limits);
      const run = await ledger.runFiles(runId);
      if (!run) throw runNotFound(runId);
      // Sent before (a retry, a replay, another result of the run): nothing to keep again.
      if (await ledger.fileOf(runId, sha256))
        return reply.code(200).send({ sha256, size, received: 'before' });
      if (run.bytes + size > limits.maxRunBytes) throw runFull(size, run.bytes, limits);
      const file = await ledger.blobs.incomingFile();
      try {
        const received = await receive(request.body as Readable, file);
        if (received.size !== size) {
          throw new ApiError(
            400,
            'invalid_request',
            `the body has ${received.size} bytes, not the ${size} Content-Length says`,
          );
        }
        if (received.sha256 !== sha256) {
          throw new ApiError(
            400,
            'attachment_hash_mismatch',
            `the body's SHA-256 is ${received.sha256}, not ${sha256}: the file changed while it was sent, or the path names another file`,
          );
        }
        const outcome = await ledger.link(runId, sha256, size, file, limits.maxRunBytes);
        switch (outcome.kind) {
          case 'created':
            return reply.code(201).send({ sha256, size, received: 'now' });
          case 'present':
            return reply.code(200).send({ sha256, size, received: 'before' });
          case 'no-run':
            throw runNotFound(runId);
          case 'run-full':
            throw runFull(size, outcome.runBytes, limits);
        }
      } finally {
        await fs.promises.rm(file, { force: true });
      }
    });
  });

  app.get<{ Params: Params }>(paths.runAttachment, async (request, reply) => {
    const { id: runId, sha256 } = request.params;
    checkHash(sha256);
    // The API's copy is bytes to save, whatever they are: a program names its own files.
    return sendFile(request, reply, ledger, { runId, sha256, name: sha256, contentType: undefined }, () => {
      throw new ApiError(
        404,
        'attachment_not_found',
        `run ${JSON.stringify(runId.slice(0, 100))} has no file ${sha256}`,
      );
    });
  });
}

function checkHash(sha256: string): void {
  if (!SHA256.test(sha256)) {
    throw new ApiError(
      400,
      'invalid_request',
      'an attachment is named by the SHA-256 of its bytes: 64 lower-case hex digits after attachments/',
    );
  }
}

function declaredLength(header: string | undefined): number {
  if (header === undefined || !/^\d{1,15}$/.test(header)) {
    throw new ApiError(411, 'length_required', "an attachment's upload says its size in Content-Length");
  }
  return Number(header);
}

function tooLarge(sha256: string, size: number, limits: AttachmentLimits): ApiError {
  return new ApiError(
    413,
    'attachment_too_large',
    `the file ${sha256} is ${size} bytes; this server keeps files of at most ${limits.maxFileBytes} bytes`,
    {},
    { size, maxFileBytes: limits.maxFileBytes },
  );
}

function runFull(size: number, runBytes: number, limits: AttachmentLimits): ApiError {
  return new ApiError(
    413,
    'run_attachments_full',
    `the run's files take ${runBytes} bytes; this file's ${size} would pass this server's limit of ${limits.maxRunBytes} bytes for a run`,
    {},
    { size, runBytes, maxRunBytes: limits.maxRunBytes },
  );
}

/** Writes the body to `file` as it arrives, hashing it. */
async function receive(body: Readable, file: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  await pipeline(
    body,
    async function* (source: AsyncIterable<Buffer>) {
      for await (const chunk of source) {
        hash.update(chunk);
        size += chunk.length;
        yield chunk;
      }
    },
    fs.createWriteStream(file, { mode: 0o600 }),
  );
  return { sha256: hash.digest('hex'), size };
}
