import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Link,
  type Span,
} from '@opentelemetry/api';
import { withLogFields } from './log-fields';

/**
 * Spans of payhook's own work, beside what the HTTP, Express, pg, amqplib and undici
 * instrumentations record (tracing-sdk.ts). Without a configured SDK every call here is a no-op of
 * the OpenTelemetry API: tracing off costs nothing worth measuring.
 */
const tracer = () => trace.getTracer('payhook');

/** Runs `work` in a span that ends with it, recording a thrown error as the span's status. */
export function inSpan<T>(
  name: string,
  options: { kind?: SpanKind; attributes?: Attributes; parent?: Record<string, string>; links?: Link[] },
  work: (span: Span) => Promise<T>,
): Promise<T> {
  // A parent from message headers continues the trace of the request that caused the message.
  const parent = options.parent ? propagation.extract(ROOT_CONTEXT, options.parent) : context.active();
  return tracer().startActiveSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes, links: options.links },
    parent,
    async (span) => {
      try {
        return await work(span);
      } catch (error) {
        span.recordException(error instanceof Error ? error : String(error));
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

/** A link to the active span, for work done later on behalf of many (a batch); none when tracing is off. */
export function linkToCurrentSpan(): Link | undefined {
  const span = trace.getActiveSpan();
  return span ? { context: span.spanContext() } : undefined;
}

/**
 * Runs `work` outside the current trace and log context: background work a request or a message
 * merely woke up must not be counted as theirs.
 */
export function detached<T>(work: () => T): T {
  return context.with(ROOT_CONTEXT, () => withLogFields({}, work));
}

/** The active trace context as W3C `traceparent`/`tracestate` headers (none when tracing is off). */
export function traceHeaders(): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier;
}

export { SpanKind, type Span };
