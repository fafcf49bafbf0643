import { redact, secretPattern } from './redact.js';

/** Writes `testrun: …` lines, with every form of a secret replaced, whatever the line's source. */
export class Logger {
  private readonly secrets: string[] = [];
  private pattern: RegExp | undefined;

  constructor(private readonly write: (text: string) => void = (text) => process.stderr.write(text)) {}

  /** From now on, `secret` is printed as `***` (see redact.ts for the forms it is found in). */
  redact(secret: string | undefined): void {
    if (!secret || this.secrets.includes(secret)) return;
    this.secrets.push(secret);
    this.pattern = secretPattern(this.secrets);
  }

  clean(text: string): string {
    return redact(text, this.pattern);
  }

  line(message: string): void {
    try {
      this.write(`testrun: ${this.clean(message)}\n`);
    } catch {
      // A closed stderr must not break the test run.
    }
  }
}
