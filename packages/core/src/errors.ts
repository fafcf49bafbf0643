/**
 * Every error core reports has a stable `code` for machines and a message that names
 * the problem and the fix for people. None of them ever carries the API key.
 */
export class TestrunError extends Error {
  readonly code: string;

  constructor(code: string, message: string) {
    super(message);
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

/** The service answered with a status we do not treat as success. */
export class HttpError extends TestrunError {
  readonly method: string;
  readonly url: string;
  readonly status: number;
  readonly bodyExcerpt: string;

  constructor(method: string, url: string, status: number, body: string, hint = '') {
    const excerpt = excerptOf(body);
    super(
      `TESTRUN_HTTP_${status}`,
      `${method} ${url} answered ${status}${excerpt ? `: ${excerpt}` : ''}${hint ? `. ${hint}` : ''}`,
    );
    this.name = 'HttpError';
    this.method = method;
    this.url = url;
    this.status = status;
    this.bodyExcerpt = excerpt;
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

/** The first 200 characters of a body, on one line. */
export function excerptOf(body: string): string {
  const oneLine = body.replace(/\s+/g, ' ').trim();
  return oneLine.length > 200 ? `${oneLine.slice(0, 200)}…` : oneLine;
}
