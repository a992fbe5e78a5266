import type { Params } from 'nestjs-pino';
import pino, { type DestinationStream, type LevelWithSilent } from 'pino';
import pretty from 'pino-pretty';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isProbe, loggablePath } from './request-paths';
import { scrubSecrets } from './secret-patterns';

/**
 * Where a secret can sit in a log record: request headers, and the fields of anything logged as an
 * object. Censored by pino before the line is written (issue 16); messages are scrubbed as well.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["idempotency-key"]',
  'res.headers["set-cookie"]',
  // Fields of an object logged as the line (exact paths: wildcards would be walked at every child
  // logger of every request and message, and no code logs a secret nested deeper).
  'authorization',
  'password',
  'consolePassword',
  'pin',
  'pins',
  'key',
  'apiKey',
  'secret',
  'signingSecret',
  'token',
  'cookie',
];

export interface LoggingOptions {
  /** `payments-api` or `webhook-dispatcher`: the `service` field of every line. */
  service: string;
  level: LevelWithSilent;
  /** `json` for machines (production), `pretty` for a person at a terminal. */
  format: 'json' | 'pretty';
  /** Where lines go instead of stdout (tests capture them). */
  destination?: DestinationStream;
}

/**
 * Lines to stdout are written asynchronously: a line written while the previous write is under way
 * joins the next write, so under load one system call carries many lines (a synchronous write per
 * line cost the dispatcher 2–7% of its CPU). pino writes out what is buffered on 'exit', which a
 * graceful stop reaches too (process.exit after the shutdown hooks, app.setup.ts). Bounded: if
 * stdout stops taking lines, lines past this are dropped rather than held in memory.
 */
const LOG_BUFFER_BYTES = 16 * 1024 * 1024;
/** How often, at most, stderr is told that lines were dropped. */
const DROP_REPORT_MS = 10_000;

/**
 * Asynchronous stdout for JSON lines (see LOG_BUFFER_BYTES). Dropped lines are counted and said on
 * stderr, once per DROP_REPORT_MS at most, so a gap in the logs is never silent.
 */
export function asyncStdout(
  service: string,
  {
    fd = 1,
    maxLength = LOG_BUFFER_BYTES,
    reportMs = DROP_REPORT_MS,
    report = (line: string): void => void process.stderr.write(line),
  }: { fd?: number; maxLength?: number; reportMs?: number; report?: (line: string) => void } = {},
): DestinationStream {
  const destination = pino.destination({ dest: fd, sync: false, maxLength });
  let dropped = 0;
  destination.on('drop', (data: string) => {
    if (dropped === 0) {
      setTimeout(() => {
        report(
          `${service}: ${dropped} log line(s) dropped: stdout did not take them fast enough ` +
            `(${maxLength} bytes buffered)\n`,
        );
        dropped = 0;
      }, reportMs).unref();
    }
    dropped += data.split('\n').filter(Boolean).length;
  });
  return destination;
}

/** The one logger of an app (nestjs-pino over pino-http): JSON with the correlation fields, secrets censored. */
export function loggingParams(options: LoggingOptions): Params {
  const destination =
    options.destination ??
    (options.format === 'pretty'
      ? pretty({ sync: true, colorize: process.stdout.isTTY, singleLine: true, ignore: 'pid,hostname' })
      : asyncStdout(options.service));
  return {
    pinoHttp: [
      {
        level: options.level,
        base: { service: options.service },
        timestamp: pino.stdTimeFunctions.isoTime,
        redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
        // A secret pasted into a message (an error text, say) is masked too.
        hooks: {
          logMethod(args, method) {
            method.apply(
              this,
              args.map((arg) => (typeof arg === 'string' ? scrubSecrets(arg) : arg)) as Parameters<typeof method>,
            );
          },
        },
        // The Request-Id every answer carries (set before this middleware runs) is the line's requestId.
        // The dispatcher's probes have none: a short id of their own.
        genReqId: (_request: IncomingMessage, response: ServerResponse) =>
          (response.getHeader('Request-Id') as string | undefined) ?? `req_${randomBytes(8).toString('hex')}`,
        // Probes every few seconds would bury the requests that matter.
        autoLogging: { ignore: (request: IncomingMessage) => isProbe(request.url ?? '') },
        customAttributeKeys: { reqId: 'requestId' },
        quietReqLogger: true,
        serializers: {
          req: (request: { method: string; url: string }) => ({
            method: request.method,
            path: loggablePath(request.url),
          }),
          res: (response: { statusCode: number }) => ({ status: response.statusCode }),
        },
        customSuccessMessage: (request, response) =>
          `${request.method} ${loggablePath(request.url ?? '')} ${response.statusCode}`,
        // A 5xx is ours to look at; a 4xx is the caller's business and an ordinary line.
        customLogLevel: (_request, response, error) => (error || response.statusCode >= 500 ? 'error' : 'info'),
      },
      destination,
    ],
    renameContext: 'module',
    // The request's closing line carries what the request learned (merchantId, paymentId, …) too.
    assignResponse: true,
  };
}
