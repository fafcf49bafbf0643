/** What every module in ./commands exports. */
export interface Command {
  /** One line for `testrun --help`. */
  summary: string;
  /** The full text of `testrun <command> --help`. */
  usage: string;
  /** Runs the command with the arguments after its name; resolves to the exit code. */
  run(argv: string[]): Promise<number>;
}
