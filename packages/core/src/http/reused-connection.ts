/**
 * How long a kept-alive connection may sit idle before we close it ourselves. Servers close
 * idle connections too (Node's own after 5 s, some proxies after 1 s); a batch sent on a
 * connection just as the server closes it fails without an answer. Closing first, below
 * Node's 5 s, makes that rare; a server's `Keep-Alive: timeout=N` shortens it further.
 */
export const IDLE_CONNECTION_MS = 4000;

/** The errors of a connection the other side closed under a request. */
const CLOSED_CODES: ReadonlySet<string> = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

/**
 * A request sent on a kept-alive connection that the server closed before answering (it
 * was closing it as idle just then). Says nothing about the service: the request goes
 * again at once, on a new connection (docs/design/http.md#connections-that-servers-close).
 */
export class ReusedConnectionClosed extends Error {
  readonly code: string;

  constructor(cause: NodeJS.ErrnoException) {
    super(`the server closed a kept-alive connection as it was reused (${cause.code})`, { cause });
    this.name = 'ReusedConnectionClosed';
    this.code = cause.code!;
  }

  /** `error` as a ReusedConnectionClosed when it is a closed connection's, else as it was. */
  static from(error: unknown): unknown {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    return code && CLOSED_CODES.has(code)
      ? new ReusedConnectionClosed(error as NodeJS.ErrnoException)
      : error;
  }
}
