/** Exit codes of the `bunnynet` command: scripts can tell a typo from an outage from a partial answer. */
export const ExitCode = {
  Ok: 0,
  /** A bug or an unexpected failure inside the tool. */
  Internal: 1,
  /** Wrong flags, arguments or settings (no key, a bad URL); nothing was sent. */
  Usage: 2,
  /** The API (or the network) refused: nothing useful was printed. */
  ApiError: 3,
  /** Some results were printed, then the run stopped early or skipped malformed input. */
  Partial: 4,
  /** Interrupted (Ctrl-C) before finishing a run that was not meant to be open-ended. */
  Interrupted: 130,
} as const;

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}
