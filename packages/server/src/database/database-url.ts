/**
 * What a `--database` URL may say, and the one way it is shown: with its password replaced.
 * This module never loads `pg`: `openPostgres` (open-database.ts) does, and only when a
 * PostgreSQL URL is given, so a server on its embedded default never pays for a driver it does not use.
 */

/** A database the server cannot open or reach; its message never holds the URL's password. */
export class DatabaseError extends Error {
  constructor(
    /** `database_url_invalid` (fix the URL) or `database_unreachable` (start the server, check host, user, password). */
    readonly code: 'database_url_invalid' | 'database_unreachable',
    message: string,
  ) {
    super(message);
    this.name = 'DatabaseError';
  }
}

const POSTGRES_SCHEME = /^postgres(ql)?:\/\//i;

/** Whether `target` names a PostgreSQL server (`postgres://…` or `postgresql://…`). */
export function isPostgresUrl(target: string): boolean {
  return POSTGRES_SCHEME.test(target);
}

/** The URL as it may be printed: `postgres://user:***@host:5432/db`, also when it does not parse. */
export function redactDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    // Unparseable: cut everything between the scheme's `//` and the last `@` that has a `:` before it.
    return url.replace(/^([a-z]+:\/\/[^:/@]*):[^@]*@/i, '$1:***@');
  }
}

/** Every form in which `url`'s password could appear in a message: as written and decoded. */
export function secretsOf(url: string): string[] {
  let password = '';
  try {
    password = new URL(url).password;
  } catch {
    password = /^[a-z]+:\/\/[^:/@]*:([^@]*)@/i.exec(url)?.[1] ?? '';
  }
  if (password === '') return [];
  let decoded = password;
  try {
    decoded = decodeURIComponent(password);
  } catch {
    // A stray `%`: only the written form can appear.
  }
  return [...new Set([password, decoded])].filter((secret) => secret !== '');
}

/** Rewrites an error's message and stack so that none of `secrets` is in them; answers the same error. */
export function scrubError<E>(error: E, secrets: readonly string[]): E {
  if (secrets.length === 0 || !(error instanceof Error)) return error;
  const scrub = (text: string) => secrets.reduce((out, secret) => out.split(secret).join('***'), text);
  error.message = scrub(error.message);
  if (error.stack) error.stack = scrub(error.stack);
  return error;
}
