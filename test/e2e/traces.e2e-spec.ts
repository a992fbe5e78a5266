import { randomUUID } from 'node:crypto';
import { context, propagation, SpanKind, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { WEBHOOK_DELIVER_ROUTING_KEY } from '@payhook/messaging';
import { UrlScrubbingSpanExporter } from '@payhook/observability';
import type { PaymentsApiHarness, TestMerchant } from '../support/payments-api.harness';
import { pollUntil } from '../support/poll-until';
import { createPayment } from '../support/webhook-scenario';
import { startWebhookStack, type WebhookStack } from '../support/webhook-stack';

/**
 * Issue 16: one payment's spans in one trace across both apps. The API and the dispatcher share
 * nothing but the outbox row and the broker message, so a shared trace id proves the context
 * travelled through both. An in-memory exporter stands in for the OTLP one, behind the same
 * scrubbing exporter; the undici instrumentation records the POST to the merchant, as in production.
 */
describe('traces across the broker', () => {
  const exporter = new InMemorySpanExporter();
  let stack: WebhookStack;
  let api: PaymentsApiHarness;
  let merchant: TestMerchant;
  let undici: UndiciInstrumentation;

  beforeAll(async () => {
    trace.setGlobalTracerProvider(
      new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new UrlScrubbingSpanExporter(exporter))] }),
    );
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    // Listens on undici's diagnostics channels, so it sees the dispatcher's POSTs without patching modules.
    undici = new UndiciInstrumentation();
    stack = await startWebhookStack('traces');
    api = stack.api;
    merchant = await api.merchantWithKey('test');
    await api.as(merchant).put('/v1/webhook-endpoint').send({ url: stack.receiver.url }).expect(200);
  });
  afterAll(async () => {
    await stack.stop();
    undici.disable();
    trace.disable();
    context.disable();
    propagation.disable();
  });

  const attributeOf = (span: ReadableSpan, name: string) => span.attributes[name];
  const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

  /** Completes a new payment and waits for its webhook attempt's span. */
  async function completedPaymentSpans(of = merchant): Promise<{ paymentId: string; spans: ReadableSpan[] }> {
    const paymentId = await createPayment(api, of);
    await api.as(of).post(`/v1/test-helpers/payments/${paymentId}/complete`).expect(200);
    const attempt = await pollUntil(
      async () =>
        exporter
          .getFinishedSpans()
          .find((span) => span.name === 'webhook attempt' && attributeOf(span, 'payhook.payment_id') === paymentId),
      (span) => span !== undefined,
    );
    const traceId = attempt!.spanContext().traceId;
    return { paymentId, spans: exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId) };
  }

  it('puts the completion, the relay publish, the dispatcher consume and the merchant POST in one trace', async () => {
    const { paymentId, spans } = await completedPaymentSpans();
    const named = (name: string) => spans.filter((span) => span.name === name);

    // API: the move and its event, committed together; the relay publishing the outbox row.
    const [completion] = named('payment completed');
    expect(attributeOf(completion, 'payhook.payment_id')).toBe(paymentId);
    const [publish] = named(`${WEBHOOK_DELIVER_ROUTING_KEY} publish`);
    // Dispatcher: consuming the message, and the attempt (the POST to the merchant) within it.
    const [consume] = named(`${WEBHOOK_DELIVER_ROUTING_KEY} process`);
    const [attempt] = named('webhook attempt');
    expect(attributeOf(attempt, 'http.response.status_code')).toBe(200);
    expect(attributeOf(attempt, 'payhook.attempt')).toBe(1);

    // Each step is the child of the one before it, across the outbox row and the message headers.
    expect(parentOf(publish)).toBe(completion.spanContext().spanId);
    expect(parentOf(consume)).toBe(publish.spanContext().spanId);
    expect(parentOf(attempt)).toBe(consume.spanContext().spanId);
  });

  it('links the statement that inserted a payment to the create it served, outside that create’s trace', async () => {
    const paymentId = await createPayment(api, merchant);
    const create = await pollUntil(
      async () =>
        exporter
          .getFinishedSpans()
          .find((span) => span.name === 'payment create' && attributeOf(span, 'payhook.payment_id') === paymentId),
      (span) => span !== undefined,
    );
    const statement = exporter
      .getFinishedSpans()
      .find(
        (span) =>
          span.name === 'payment insert batch' &&
          span.links.some((link) => link.context.spanId === create!.spanContext().spanId),
      );
    expect(statement).toBeDefined();
    expect(attributeOf(statement!, 'payhook.batch_size')).toBeGreaterThanOrEqual(1);
    // It serves every create in its batch, so it starts a trace of its own.
    expect(statement!.spanContext().traceId).not.toBe(create!.spanContext().traceId);
  });

  it('exports no part of a webhook URL past its host: a token in its query or path stays out of the traces', async () => {
    const token = `trace-token-${randomUUID()}`;
    const withToken = await api.merchantWithKey('test');
    const url = `${stack.receiver.url}/${token}?token=${token}`;
    await api.as(withToken).put('/v1/webhook-endpoint').send({ url }).expect(200);
    const { spans } = await completedPaymentSpans(withToken);

    // The POST itself was recorded (undici's span is the one that carries url.full and url.query)…
    const post = spans.find(
      (span) => span.kind === SpanKind.CLIENT && attributeOf(span, 'http.request.method') === 'POST',
    );
    expect(post).toBeDefined();
    expect(attributeOf(post!, 'server.address')).toBe('127.0.0.1');
    expect(attributeOf(post!, 'http.response.status_code')).toBe(200);
    // …and no span exported so far, of any kind, holds the token anywhere.
    const exported = exporter
      .getFinishedSpans()
      .map((span) => JSON.stringify({ name: span.name, attributes: span.attributes, events: span.events }));
    expect(exported.filter((text) => text.includes(token))).toEqual([]);
  });

  it('gives another payment a trace of its own', async () => {
    const first = await completedPaymentSpans();
    const second = await completedPaymentSpans();
    expect(second.spans[0].spanContext().traceId).not.toBe(first.spans[0].spanContext().traceId);
    expect(second.spans.map((span) => attributeOf(span, 'payhook.payment_id')).filter(Boolean)).not.toContain(
      first.paymentId,
    );
  });
});
