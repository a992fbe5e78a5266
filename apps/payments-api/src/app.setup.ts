import type { INestApplication, LogLevel, LoggerService, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Logger as PinoLogger } from 'nestjs-pino';
import { LOCAL_MODE_SERVICE, QuietStartupLogger, SHARED_PROCESS_WARNINGS } from '@payhook/observability';
import type { DestinationStream } from 'pino';
import { ExpressAdapter, type NestExpressApplication } from '@nestjs/platform-express';
import type { PaymentsApiEnv } from './platform/config/payments-api.env';
import { ApiExceptionFilter } from './platform/errors/api-exception.filter';
import { applyConnectionLimits, cappedPeerExemption } from './platform/http/connection-limits';
import { jsonBodyMiddleware } from './platform/http/json-body';
import { requestIdMiddleware } from './platform/http/request-id.middleware';
import { untrustedProxyWarning } from './platform/http/untrusted-proxy-warning';
import { strictTransportSecurity } from './platform/http/strict-transport-security';
import { RequestValidationPipe } from './platform/http/request-validation.pipe';
import { cacheValidationRules } from './platform/http/validation-rules-cache';
import { OPENAPI_DOCUMENTS, type OpenApiDocuments } from './surfaces/docs/openapi.controller';
import { adminDocument, merchantDocument } from './surfaces/docs/openapi.document';
import { PaymentsApiModule } from './payments-api.module';

/** Builds the API for a validated configuration; main.ts and the tests both use it. */
export async function createPaymentsApi(
  env: PaymentsApiEnv,
  /** `shutdownHooks: false` when the caller closes the app itself (local mode runs two apps in one process). */
  options: {
    /** Nest's own lines through this logger instead of the app's pino logger (tests, local mode). */
    logger?: LogLevel[] | LoggerService;
    /** Where the pino lines go instead of stdout (tests capture them). */
    logDestination?: DestinationStream;
    shutdownHooks?: boolean;
    /** Local mode: both apps in one process, which quiets the warnings meant for one app per process. */
    sharesProcess?: boolean;
    /** Modules a caller adds beside the app's own (the bench's echo route). */
    extraModules?: Type[];
  } = {},
): Promise<INestApplication> {
  const module = PaymentsApiModule.forRoot(
    env,
    {
      destination: options.logDestination,
      // Nest's logger is one per process: in local mode its lines are payhook's, not the first app's.
      service: options.sharesProcess ? LOCAL_MODE_SERVICE : undefined,
    },
    options.extraModules,
  );
  const adapter = caseSensitiveExpress();
  const app = await NestFactory.create<NestExpressApplication>(module, adapter, {
    bodyParser: false,
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
  // Client addresses (voucher PIN throttling) come from X-Forwarded-For only through proxies the operator trusts.
  if (env.TRUST_PROXY) app.set('trust proxy', env.trustProxy);
  else if (env.NODE_ENV === 'production') app.use(untrustedProxyWarning());
  if (env.BASE_URL.startsWith('https://')) app.use(strictTransportSecurity);
  setupApp(app);
  const trusted = adapter.getInstance<{ get(name: 'trust proxy fn'): TrustProxyFn }>().get('trust proxy fn');
  applyConnectionLimits(app.getHttpServer(), env.connectionLimits, cappedPeerExemption(env.trustProxy, trusted));
  Object.assign(app.get<OpenApiDocuments>(OPENAPI_DOCUMENTS), {
    merchant: merchantDocument(app),
    admin: adminDocument(app),
  });
  // After a graceful stop, process.exit() rather than the signal re-raised: only 'exit' makes pino
  // write out the log lines still buffered (its stdout destination is asynchronous, ADR 0012).
  if (options.shutdownHooks !== false) app.enableShutdownHooks([], { useProcessExit: true });
  return app;
}

/** Express's compiled "trust proxy": whether the hop `i` away, at `address`, is a trusted proxy. */
type TrustProxyFn = (address: string, i: number) => boolean;

/**
 * Express with case-sensitive routes: /P/{suffix} must not serve the payment screen under a spelling
 * the log masking does not expect. The adapter's constructor already made the router, so the
 * "case sensitive routing" setting comes too late; the router's own flag holds for every route Nest
 * registers after this (and Nest reads it back from there).
 */
function caseSensitiveExpress(): ExpressAdapter {
  const adapter = new ExpressAdapter();
  adapter.getInstance<{ router: { caseSensitive: boolean } }>().router.caseSensitive = true;
  return adapter;
}

/** Everything between Nest and the network. */
export function setupApp(app: NestExpressApplication): NestExpressApplication {
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(requestIdMiddleware);
  app.use(jsonBodyMiddleware);
  app.useGlobalFilters(new ApiExceptionFilter());
  cacheValidationRules();
  app.useGlobalPipes(new RequestValidationPipe());
  return app;
}
