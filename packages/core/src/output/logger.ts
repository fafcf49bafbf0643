import { inert } from '../inert.js';
import { redact, type SecretPattern, secretPattern } from './redact.js';

/**
 * Writes `testrun: …` lines, with every form of a secret replaced and every control
 * character shown as an escape, whatever the line's source.
 */
export class Logger {
  private readonly secrets: string[] = [];
  private pattern: SecretPattern | undefined;

  constructor(private readonly write: (text: string) => void = (text) => process.stderr.write(text)) {}

  /** From now on, `secret` is printed as `***` (see redact.ts for the forms it is found in). */
  redact(secret: string | undefined): void {
    if (!secret || this.secrets.includes(secret)) return;
    this.secrets.push(secret);
    this.pattern = secretPattern(this.secrets);
  }

  /** Text for the terminal: secrets redacted, control characters inert; line breaks kept. */
  clean(text: string): string {
    return inert(redact(text, this.pattern), { keepLineBreaks: true });
  }

  /** One line: a line break inside `message` (from a service's answer, say) cannot start a line of its own. */
  line(message: string): void {
    try {
      this.write(`testrun: ${inert(redact(message, this.pattern))}\n`);
    } catch {
      // A closed stderr must not break the test run.
    }
  }
}
