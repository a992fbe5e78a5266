import { SpanKind, type Attributes } from '@opentelemetry/api';
import type { ExportResult } from '@opentelemetry/core';
// Types only: erased when compiled, so tracing off loads no SDK.
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { loggablePath } from './request-paths';

/** Attributes that hold a whole URL or its query, in the current and the older HTTP conventions. */
const URL_WITH_QUERY = ['url.full', 'url.query', 'http.url'];
const PATH = ['url.path', 'http.target'];

/**
 * A span's HTTP attributes as the logs record them: never a full URL or a query, since a merchant's
 * webhook URL may carry a token there (`?token=…`), and a merchant's path is dropped too (it may be
 * the token). An outgoing request keeps its host, port and scheme (server.address, server.port,
 * url.scheme); an incoming one keeps payhook's own path, masked as in the logs.
 */
export function scrubUrlAttributes(attributes: Attributes, kind: SpanKind): void {
  for (const name of URL_WITH_QUERY) delete attributes[name];
  for (const name of PATH) {
    const value = attributes[name];
    if (value === undefined) continue;
    if (kind === SpanKind.SERVER && typeof value === 'string') attributes[name] = loggablePath(value);
    else delete attributes[name];
  }
}

/**
 * The exporter in front of the real one: every span leaves the process through it, whichever
 * instrumentation (undici, http) recorded it. Scrubbing here rather than in a span processor keeps
 * the SDK's own batch processor and its OTEL_BSP_* settings.
 */
export class UrlScrubbingSpanExporter implements SpanExporter {
  constructor(private readonly next: SpanExporter) {}

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    // The spans have ended and go nowhere else: scrubbing them in place copies nothing.
    for (const span of spans) scrubUrlAttributes(span.attributes, span.kind);
    this.next.export(spans, resultCallback);
  }

  shutdown(): Promise<void> {
    return this.next.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.next.forceFlush?.() ?? Promise.resolve();
  }
}
