/** Writes `testrun: …` lines, with every occurrence of a secret replaced, whatever the line's source. */
export class Logger {
  private readonly secrets: string[] = [];

  constructor(private readonly write: (text: string) => void = (text) => process.stderr.write(text)) {}

  /** From now on, `secret` is printed as `***`. */
  redact(secret: string | undefined): void {
    if (secret && secret.length >= 4 && !this.secrets.includes(secret)) this.secrets.push(secret);
  }

  clean(text: string): string {
    return this.secrets.reduce((line, secret) => line.split(secret).join('***'), text);
  }

  line(message: string): void {
    try {
      this.write(`testrun: ${this.clean(message)}\n`);
    } catch {
      // A closed stderr must not break the test run.
    }
  }
}
