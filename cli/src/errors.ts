/** The command line was wrong (exit 2): the message says what, the usage follows. */
export class UsageError extends Error {
  constructor(
    message: string,
    /** The command whose usage to print. */
    readonly command?: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/** The CLI could not do what was asked for a reason of its own (exit 1): no such container, … */
export class CliError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliError';
  }
}

/** The API refused: its `detail` (Chinese) and `code`, and the HTTP status (exit 1). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly code: string | undefined,
  ) {
    super(detail);
    this.name = 'ApiError';
  }
}
