import type { LoggerService } from '@nestjs/common';

/** Every line an app logs, as `<level> <message> <context>`: to read a report, or to prove a secret is in none. */
export class RecordingLogger implements LoggerService {
  readonly lines: string[] = [];
  private record =
    (level: string) =>
    (message: unknown, ...rest: unknown[]) =>
      void this.lines.push(`${level} ${[message, ...rest].map((part) => String(part)).join(' ')}`);
  log = this.record('log');
  error = this.record('error');
  warn = this.record('warn');
  debug = this.record('debug');
  verbose = this.record('verbose');
  fatal = this.record('fatal');
}
