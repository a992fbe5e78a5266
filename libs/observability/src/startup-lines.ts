import { Logger, type INestApplication, type LoggerService } from '@nestjs/common';
import type { AddressInfo } from 'node:net';

/**
 * Nest's start-up detail: a line per module and per route (some 140), and its own "successfully
 * started", which buried the one line a person starting payhook needs (where it listens). Kept for
 * LOG_LEVEL=debug.
 */
const START_UP_DETAIL = new Set([
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestFactory',
  'NestApplication',
  'NestMicroservice',
]);

/**
 * @nestjs/typeorm warns when a second module registers the default data source in one process, for
 * fear that one overrides the other. Local mode runs both apps in one process, each with its own
 * container and data source: there the warning is about nothing.
 */
export const SHARED_PROCESS_WARNINGS: ReadonlySet<string> = new Set(['DataSourceNameRegistry']);

/** The `service` of every line of local mode: one process runs both apps (its `context` names the part). */
export const LOCAL_MODE_SERVICE = 'payhook';

/** Nest's lines as they are, except its start-up detail, which goes to debug, and warnings that do not apply. */
export class QuietStartupLogger implements LoggerService {
  constructor(
    private readonly inner: LoggerService,
    /** Contexts whose warnings do not apply to this process (SHARED_PROCESS_WARNINGS in local mode). */
    private readonly ignoredWarnings: ReadonlySet<string> = new Set(),
  ) {}

  log(message: unknown, ...rest: unknown[]): void {
    if (START_UP_DETAIL.has(String(rest.at(-1)))) this.inner.debug?.(message, ...rest);
    else this.inner.log(message, ...rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.inner.error(message, ...rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    if (!this.ignoredWarnings.has(String(rest.at(-1)))) this.inner.warn(message, ...rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.inner.debug?.(message, ...rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.inner.verbose?.(message, ...rest);
  }
  fatal(message: unknown, ...rest: unknown[]): void {
    this.inner.fatal?.(message, ...rest);
  }
}

/** Where a listening server answers, as a person types it: `localhost` when it listens on every interface. */
export function originOf(address: AddressInfo): string {
  const host = ['::', '0.0.0.0'].includes(address.address)
    ? 'localhost'
    : address.family === 'IPv6'
      ? `[${address.address}]`
      : address.address;
  return `http://${host}:${address.port}`;
}

/** The one line that says where an app listens: `payments-api listening: API http://…/v1, docs http://…/docs`. */
export function listeningLine(app: INestApplication, service: string, paths: Record<string, string>): string {
  const origin = originOf((app.getHttpServer() as { address(): AddressInfo }).address());
  const links = Object.entries(paths).map(([label, path]) => `${label} ${origin}${path}`);
  return `${service} listening: ${links.join(', ')}`;
}

/** Logs listeningLine once the app listens (main.ts and local mode). */
export function announceListening(app: INestApplication, service: string, paths: Record<string, string>): void {
  new Logger(service).log(listeningLine(app, service, paths));
}
