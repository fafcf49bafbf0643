/**
 * What moves a request's bytes to the service and back
 * (docs/design/http.md#the-client-and-its-transports). The client keeps what is ours: timeouts,
 * redaction, TLS failures, the attempt log; a transport only sends a body and reads the answer, at
 * most a bounded prefix of it.
 */
export interface Transport {
  send(url: URL, request: TransportRequest): Promise<TransportResponse>;
  /** Closes idle keep-alive connections, so the test process can exit at once. */
  close(): Promise<void>;
}

/**
 * A request's body: JSON text, bytes in memory, or a file's bytes read from disk as they go
 * (an attachment: never held whole in memory, however large). A file is opened anew by each
 * attempt.
 */
export type RequestBody = string | Uint8Array | FileBody;

export interface FileBody {
  path: string;
  /** Its size, sent as Content-Length: a file that changed since is the server's to refuse (by its hash). */
  size: number;
}

/** The body's size in bytes, for Content-Length. */
export function bodyLength(body: RequestBody): number {
  if (typeof body === 'string') return Buffer.byteLength(body);
  return body instanceof Uint8Array ? body.byteLength : body.size;
}

export function isFileBody(body: RequestBody): body is FileBody {
  return typeof body === 'object' && !(body instanceof Uint8Array);
}

export interface TransportRequest {
  /** POST when absent: every request but completing a run (`completeRun`) and uploading a file is one. */
  method?: string;
  headers: Record<string, string>;
  body: RequestBody;
  /** Aborts the request: the attempt's timeout, or the flush deadline. */
  signal: AbortSignal;
}

export interface TransportResponse {
  status: number;
  /** Header names lower-cased; repeated headers joined with `, `. */
  headers: Record<string, string | undefined>;
  body: string;
}
