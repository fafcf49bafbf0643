import type { buildConnector } from 'undici';

/** How many recent alerts are kept: only the failure being reported right now is looked up. */
const KEPT = 32;

/**
 * In TLS 1.3 a server refuses a client certificate after the client thinks the handshake
 * is done; Node's socket reports the alert (ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED), but
 * undici reports only "other side closed". This connector notes each socket's first TLS
 * error by its local address, so the failed request can be told apart from a dropped
 * connection and reported as the permanent refusal it is (docs/design.md, "413, refused
 * keys, TLS").
 */
export class TlsAlerts {
  private readonly alerts = new Map<string, string>();

  /** A connector like undici's own for `tls`, noting TLS errors on the sockets it makes. */
  connector(build: typeof buildConnector, tls: buildConnector.BuildOptions): buildConnector.connector {
    const connect = build(tls);
    return (options, callback) =>
      connect(options, (error, socket) => {
        if (socket) {
          const where = `${socket.localAddress}:${socket.localPort}`;
          socket.prependOnceListener('error', (socketError: NodeJS.ErrnoException) => {
            if (socketError.code?.startsWith('ERR_SSL_')) this.note(where, socketError.code);
          });
        }
        // undici's callback takes (null, socket) or (error, null).
        (callback as (error: Error | null, connected: unknown) => void)(error, socket);
      });
  }

  /** The TLS error behind an undici "other side closed" error, if a socket noted one. */
  alertBehind(error: unknown): string | undefined {
    const socket = (error as { socket?: { localAddress?: string; localPort?: number } }).socket;
    if ((error as { code?: unknown }).code !== 'UND_ERR_SOCKET' || !socket) return undefined;
    return this.alerts.get(`${socket.localAddress}:${socket.localPort}`);
  }

  private note(where: string, code: string): void {
    this.alerts.set(where, code);
    if (this.alerts.size > KEPT) this.alerts.delete(this.alerts.keys().next().value!);
  }
}
