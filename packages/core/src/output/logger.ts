import { redact, secretPattern } from './redact.js';

/**
 * Writes `testrun: …` lines, with every form of a secret replaced and every control
 * character shown as an escape, whatever the line's source.
 */
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

/**
 * Text quoted from outside (a service's error body, a run id, a file name) made inert for a
 * terminal: C0 and C1 control characters, DEL and the bidirectional overrides are written
 * as `\u001b`-style escapes, so what a service answers cannot erase our line, recolour it,
 * set the window title or reorder it into a fake summary. Tabs stay; line breaks stay only
 * when asked for.
 */
export function inert(text: string, { keepLineBreaks = false } = {}): string {
  return text.replace(keepLineBreaks ? CONTROLS_BUT_LINE_BREAKS : CONTROLS, escapeCharacter);
}

const CONTROLS = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const CONTROLS_BUT_LINE_BREAKS =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function escapeCharacter(character: string): string {
  return `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
}
