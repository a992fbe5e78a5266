import { AmqplibInstrumentation } from '@opentelemetry/instrumentation-amqplib';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { NodeSDK } from '@opentelemetry/sdk-node';

/**
 * OpenTelemetry for one app, on only when OTEL_EXPORTER_OTLP_ENDPOINT is set (issue 16). Must run
 * before the app's modules load: the instrumentations patch http, express, pg, amqplib and undici
 * as they are required. The standard OTEL_* variables (service name, headers, sampler) apply.
 */
export function startTracing(serviceName: string, env: NodeJS.ProcessEnv = process.env): NodeSDK | null {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT) return null;
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? serviceName,
    traceExporter: new OTLPTraceExporter(),
    // Traces only: metrics stay on /metrics (Prometheus), logs on stdout.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      // Health and readiness probes every few seconds would bury the requests that matter.
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => /^\/(health|ready|metrics)\b/.test(request.url ?? ''),
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
