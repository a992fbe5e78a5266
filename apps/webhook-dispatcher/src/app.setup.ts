import type { LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { WebhookDispatcherEnv } from './config/webhook-dispatcher.env';
import { WebhookDispatcherModule } from './webhook-dispatcher.module';

/** Builds the dispatcher for a validated configuration; main.ts and the tests both use it. */
export async function createWebhookDispatcher(
  env: WebhookDispatcherEnv,
  options: { logger?: LogLevel[] } = {},
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(WebhookDispatcherModule.forRoot(env), {
    bufferLogs: true,
    // Shutdown must not wait on idle keep-alive connections of clients.
    forceCloseConnections: true,
    ...(options.logger ? { logger: options.logger } : {}),
  });
  app.disable('x-powered-by');
  app.enableShutdownHooks();
  return app;
}
