import type { Attributes } from '@opentelemetry/api';
import { isProbe, loggablePath } from './request-paths';
import { UrlScrubbingSpanExporter } from './span-url-scrubbing';
// Types only: erased when compiled, so these load nothing.
import type * as Amqplib from '@opentelemetry/instrumentation-amqplib';
import type * as Express from '@opentelemetry/instrumentation-express';
import type * as Http from '@opentelemetry/instrumentation-http';
import type * as Pg from '@opentelemetry/instrumentation-pg';
import type * as Undici from '@opentelemetry/instrumentation-undici';
import type * as Otlp from '@opentelemetry/exporter-trace-otlp-http';
import type * as Sdk from '@opentelemetry/sdk-node';

/* eslint-disable @typescript-eslint/no-require-imports -- loaded only when tracing is on: the SDK and
   its instrumentations would otherwise cost every process about 26 MiB it never uses. */

/**
 * OpenTelemetry for one app, on only when OTEL_EXPORTER_OTLP_ENDPOINT is set (issue 16). Must run
 * before the app's modules load: the instrumentations patch http, express, pg, amqplib and undici
 * as they are required. The standard OTEL_* variables (service name, headers, sampler) apply.
 */
export function startTracing(serviceName: string, env: NodeJS.ProcessEnv = process.env): Sdk.NodeSDK | null {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT) return null;
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof Sdk;
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http') as typeof Http;
  const { ExpressInstrumentation } = require('@opentelemetry/instrumentation-express') as typeof Express;
  const { PgInstrumentation } = require('@opentelemetry/instrumentation-pg') as typeof Pg;
  const { AmqplibInstrumentation } = require('@opentelemetry/instrumentation-amqplib') as typeof Amqplib;
  const { UndiciInstrumentation } = require('@opentelemetry/instrumentation-undici') as typeof Undici;
  const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof Otlp;
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? serviceName,
    // No full URL or query in any span: a merchant's webhook URL may carry a token (span-url-scrubbing.ts).
    traceExporter: new UrlScrubbingSpanExporter(new OTLPTraceExporter()),
    // Traces only: metrics stay on /metrics (Prometheus), logs on stdout.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => isProbe(request.url ?? ''),
        startIncomingSpanHook: (request) => incomingSpanAttributes(request.url ?? ''),
      }),
      new ExpressInstrumentation(),
      // Queries of a traced request or message only: the background polls would each start a trace.
      new PgInstrumentation({ requireParentSpan: true }),
      new AmqplibInstrumentation(),
      new UndiciInstrumentation(),
    ],
  });
  sdk.start();
  // Spans still buffered are sent before the process ends.
  const shutdown = () => void sdk.shutdown().catch(() => undefined);
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
  return sdk;
}

/**
 * A request's path as its span records it: masked as in the logs (the payment link `/p/<suffix>`
 * opens a payment to whoever holds it) and without its query (order and customer ids). Attributes
 * set to undefined are dropped.
 */
export function incomingSpanAttributes(url: string): Attributes {
  return { 'url.path': loggablePath(url), 'url.query': undefined };
}
