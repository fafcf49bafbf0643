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

export interface TransportRequest {
  /** POST when absent: every request but completing a run (`completeRun`) is one. */
  method?: string;
  headers: Record<string, string>;
  body: string;
  /** Aborts the request: the attempt's timeout, or the flush deadline. */
  signal: AbortSignal;
}

export interface TransportResponse {
  status: number;
  /** Header names lower-cased; repeated headers joined with `, `. */
  headers: Record<string, string | undefined>;
  body: string;
}
