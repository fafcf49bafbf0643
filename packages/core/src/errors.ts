import { inert } from './inert.js';

/**
 * Every error core reports has a stable `code` for machines (the README lists them), a
 * message that names the problem and the fix for people, and the error behind it as
 * `cause`. None of them ever carries the API key.
 */
export type ErrorCode =
  /** An option or its environment variable has a value we cannot use. */
  | 'TESTRUN_INVALID_OPTION'
  /** The service answered with a status we do not treat as success. */
  | 'TESTRUN_HTTP'
  /** No answer: the connection failed or timed out. The request may or may not have arrived. */
  | 'TESTRUN_NETWORK'
  /** The TLS handshake failed: a certificate that does not verify, or a client certificate refused. */
  | 'TESTRUN_TLS'
  /** Create-run succeeded but its answer did not say which id the run has. */
  | 'TESTRUN_NO_RUN_ID'
  /** A request was retried as often as allowed, or the flush deadline came first. */
  | 'TESTRUN_GAVE_UP'
  /** The service refused one result alone (400) and took others of its run: it is not sent again. */
  | 'TESTRUN_RESULT_REFUSED'
  /** The service refused results whatever they held (each one alone too) and took none of the run's: they are spooled. */
  | 'TESTRUN_REQUESTS_REFUSED'
  /** The spool directory cannot be written: undelivered results are lost. */
  | 'TESTRUN_SPOOL'
  /** A spool file holds lines that are not what a reporter writes: replay sets it aside. */
  | 'TESTRUN_BAD_SPOOL_FILE'
  /** failOnError: results were not delivered. */
  | 'TESTRUN_UNDELIVERED'
  /** A bug in testrun. */
  | 'TESTRUN_INTERNAL';

export class TestrunError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TestrunError';
    this.code = code;
  }
}

/** An option (or its environment variable) has a value we cannot use. */
export class ConfigError extends TestrunError {
  readonly option: string;

  constructor(option: string, message: string) {
    super('TESTRUN_INVALID_OPTION', message);
    this.name = 'ConfigError';
    this.option = option;
  }
}

/** The service answered with a status we do not treat as success: method, URL, status and the start of the body. */
export class HttpError extends TestrunError {
  readonly method: string;
  readonly url: string;
  readonly status: number;
  readonly bodyExcerpt: string;
  /** The whole answer (as the client keeps it: bounded, the key redacted), for a caller that reads its JSON. */
  readonly body: string;

  constructor(method: string, url: string, status: number, body: string, hint = '') {
    const excerpt = excerptOf(body);
    super(
      'TESTRUN_HTTP',
      `${method} ${url} answered ${status}${excerpt ? `: ${excerpt}` : ''}${hint ? `. ${hint}` : ''}`,
    );
    this.name = 'HttpError';
    this.method = method;
    this.url = url;
    this.status = status;
    this.bodyExcerpt = excerpt;
    this.body = body;
  }
}

/**
 * The service refused one result alone (400) while it took others of the same run: the
 * result is at fault, and sending it again would be refused again, so it is said and dropped,
 * never spooled. The message names the result and quotes the service (`cause`).
 */
export class ResultRefusedError extends TestrunError {
  readonly result: { testSuite: string; testCase: string; status: string; duration: number };

  constructor(
    result: { testSuite: string; testCase: string; status: string; duration: number },
    cause: HttpError,
  ) {
    const { testSuite, testCase, status, duration } = result;
    super(
      'TESTRUN_RESULT_REFUSED',
      `the service refused a result, which is not sent again: testSuite ${shown(testSuite)}, testCase ${shown(testCase)} (status ${shown(status)}, duration ${duration}): ${cause.message}`,
      { cause },
    );
    this.name = 'ResultRefusedError';
    this.result = { testSuite, testCase, status, duration };
  }
}

/**
 * The service refused results of a run whatever they held: every part a refused batch was
 * split into, down to results alone, and it took no result of the run. Nothing says one
 * result is at fault (a run id or a request it refuses as such), so they are spooled, not
 * dropped, and this is said once.
 */
export class RequestsRefusedError extends TestrunError {
  constructor(cause: HttpError) {
    super(
      'TESTRUN_REQUESTS_REFUSED',
      `the service refused this run's results whatever they held (each part of a batch, down to results alone, and it took none of them), so no one result is at fault: they are spooled, not dropped. ${cause.message}`,
      { cause },
    );
    this.name = 'RequestsRefusedError';
  }
}

/** A name in a line: quoted, at most 120 characters (a name may have 1,024). */
function shown(text: string): string {
  const codePoints = Array.from(text);
  return JSON.stringify(codePoints.length > 120 ? `${codePoints.slice(0, 119).join('')}…` : text);
}

/** A request got no answer (connection refused or reset, DNS, timeout): it may or may not have arrived. */
export class NetworkError extends TestrunError {
  /**
   * The attempt failed for a reason that says nothing about the service (it was stranded in a
   * test's fake task queue, or sent on a kept-alive connection the server was closing): the
   * next attempt goes at once, not after a backoff, and is not counted against maxRetries.
   */
  readonly retryAtOnce: boolean;

  constructor(message: string, cause?: unknown, { retryAtOnce = false } = {}) {
    super('TESTRUN_NETWORK', message, { cause });
    this.name = 'NetworkError';
    this.retryAtOnce = retryAtOnce;
  }
}

/**
 * The TLS handshake failed. Not retried: a certificate that does not verify will not
 * verify on the next attempt either. The message says what to do.
 */
export class TlsError extends TestrunError {
  /** The TLS error's own code, e.g. UNABLE_TO_VERIFY_LEAF_SIGNATURE. */
  readonly tlsCode: string;

  constructor(message: string, tlsCode: string, cause?: unknown) {
    super('TESTRUN_TLS', message, { cause });
    this.name = 'TlsError';
    this.tlsCode = tlsCode;
  }
}

/** Create-run succeeded but we could not find the run's id in what came back. */
export class RunIdError extends TestrunError {
  constructor(status: number, body: string, runIdPath: string | undefined) {
    const where = runIdPath
      ? `at runIdPath "${runIdPath}"`
      : 'in the body (id, runId, run_id, uuid, also under data or run) or a Location header';
    super(
      'TESTRUN_NO_RUN_ID',
      `create run answered ${status} but no run id was found ${where}; body starts: ${JSON.stringify(excerptOf(body))}. Set the runIdPath option to the id's field, e.g. "data.attributes.id".`,
    );
    this.name = 'RunIdError';
  }
}

/** The first 200 characters of a body, on one line, its control characters shown as escapes. */
export function excerptOf(body: string): string {
  // Inert too: the message may be printed by the framework (failOnError), not by us.
  const oneLine = inert(body.replace(/\s+/g, ' ').trim());
  return oneLine.length > 200 ? `${oneLine.slice(0, 200)}…` : oneLine;
}
