/**
 * Exit codes scripts can tell apart (the merchant guide, "Building your handler on your own machine"): 0 done, 1 payhook refused or the
 * command failed, 2 the command line is wrong, 3 payhook could not be reached.
 */
export const EXIT = { ok: 0, failed: 1, usage: 2, unreachable: 3 } as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** An error the CLI reports as one line, without a stack, and exits with `exitCode`. */
export class CliError extends Error {
  override readonly name = 'CliError';

  constructor(
    message: string,
    readonly exitCode: ExitCode = EXIT.failed,
  ) {
    super(message);
  }
}

export const usageError = (message: string, command: string) =>
  new CliError(`${message} (see payhook ${command} --help)`.replace(/ {2,}/g, ' '), EXIT.usage);
