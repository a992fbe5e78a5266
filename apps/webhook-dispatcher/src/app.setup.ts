import type { LogLevel, LoggerService } from '@nestjs/common';
import { Logger as PinoLogger } from 'nestjs-pino';
import { LOCAL_MODE_SERVICE, QuietStartupLogger, SHARED_PROCESS_WARNINGS } from '@payhook/observability';
import type { Server } from 'node:http';
import type { DestinationStream } from 'pino';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { WebhookQueue } from '@payhook/messaging';
import type { WebhookDispatcherEnv } from './config/webhook-dispatcher.env';
import { DeliveryMetrics } from './deliveries/delivery.metrics';
import { DeliveryPoolWarmUp } from './deliveries/pool-warm-up';
import { WebhookDispatcherModule } from './webhook-dispatcher.module';

/** Unacknowledged messages one instance holds; more instances share the queue as competing consumers. */
const PREFETCH = 100;
/** Open connections the health port takes at once: monitors and a Prometheus scraper need a few. */
export const PROBE_CONNECTIONS = 64;
/** Beyond one attempt's timeout: how long a shutdown waits for running deliveries to be recorded. */
const DRAIN_GRACE_MS = 5_000;

/**
 * The health port serves /health, /ready and /metrics to a few monitors: small requests, answered at
 * once. A client that trickles headers, or opens connections by the thousand, is cut off long before
 * it could take the descriptors the database and the broker need (Node's defaults: 60 s + 30 s, and
 * no cap). The payments-api has configurable limits of its own (http/connection-limits.ts).
 */
function limitProbeConnections(server: Server): void {
  server.headersTimeout = 5_000;
  server.requestTimeout = 10_000;
  server.keepAliveTimeout = 65_000;
  // How often the two timeouts above are checked (@types/node 20 lacks the property; Node has it).
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = 1_000;
  server.maxConnections = PROBE_CONNECTIONS;
}

/** Builds the dispatcher for a validated configuration; main.ts and the tests both use it. */
export async function createWebhookDispatcher(
  env: WebhookDispatcherEnv,
  /** `shutdownHooks: false` when the caller closes the app itself (local mode runs two apps in one process). */
  options: {
    /** Nest's own lines through this logger instead of the app's pino logger (tests, local mode). */
    logger?: LogLevel[] | LoggerService;
    /** Where the pino lines go instead of stdout (tests capture them). */
    logDestination?: DestinationStream;
    shutdownHooks?: boolean;
    /** Local mode: both apps in one process, which quiets the warnings meant for one app per process. */
    sharesProcess?: boolean;
  } = {},
): Promise<NestExpressApplication> {
  const module = WebhookDispatcherModule.forRoot(env, {
    destination: options.logDestination,
    // Nest's logger is one per process: in local mode its lines are payhook's, not the first app's.
    service: options.sharesProcess ? LOCAL_MODE_SERVICE : undefined,
  });
  const app = await NestFactory.create<NestExpressApplication>(module, {
    bufferLogs: true,
    // Shutdown must not wait on idle keep-alive connections of clients.
    forceCloseConnections: true,
    ...(options.logger ? { logger: options.logger } : {}),
  });
  // Nest's route and module lines go to debug: start-up says where payhook listens, not 140 routes.
  if (!options.logger) {
    const ignoredWarnings = options.sharesProcess ? SHARED_PROCESS_WARNINGS : undefined;
    app.useLogger(new QuietStartupLogger(app.get(PinoLogger), ignoredWarnings));
  }
  app.disable('x-powered-by');
  limitProbeConnections(app.getHttpServer());
  // After a graceful stop, process.exit() rather than the signal re-raised: only 'exit' makes pino
  // write out the log lines still buffered (its stdout destination is asynchronous, ADR 0012).
  if (options.shutdownHooks !== false) app.enableShutdownHooks([], { useProcessExit: true });
  // The delivery queue is a Nest transport (ADR 0008, 0009): @EventPattern handlers next to the health port.
  const metrics = app.get(DeliveryMetrics);
  app.connectMicroservice(
    {
      strategy: app.get(WebhookQueue).server({
        retryScheduleMs: env.retryScheduleMs,
        prefetch: PREFETCH,
        drainTimeoutMs: env.WEBHOOK_TIMEOUT_MS + DRAIN_GRACE_MS,
        onDeadLetter: () => metrics.poisonMessages.inc(),
      }),
    },
    { inheritAppConfig: true },
  );
  // Its database connections open, with the delivery statements prepared, before the first message.
  await app.get(DeliveryPoolWarmUp).warm();
  await app.startAllMicroservices();
  return app;
}
