import type { INestApplication } from '@nestjs/common';
import { loadEnv } from '@payhook/config';
import request from 'supertest';
import { createWebhookDispatcher } from '../../apps/webhook-dispatcher/src/app.setup';
import { WebhookDispatcherEnv } from '../../apps/webhook-dispatcher/src/config/webhook-dispatcher.env';
import { pollUntil } from '../support/poll-until';
import { testAmqpNamespace, testAmqpUrl, testDatabaseUrl } from '../support/test-env';

describe('webhook-dispatcher', () => {
  let app: INestApplication;

  beforeAll(async () => {
    // A namespace of its own: this dispatcher must not consume other specs' deliveries.
    const env = loadEnv(WebhookDispatcherEnv, {
      DATABASE_URL: testDatabaseUrl(),
      AMQP_URL: testAmqpUrl(),
      AMQP_NAMESPACE: `${testAmqpNamespace()}_health`,
      NODE_ENV: 'test',
    });
    app = await createWebhookDispatcher(env, { logger: ['error', 'warn'] });
    await app.listen(0, '127.0.0.1');
  });
  afterAll(() => app.close());

  it('is alive on GET /health', async () => {
    const health = await request(app.getHttpServer()).get('/health').expect(200);
    expect(health.body).toEqual({ data: { status: 'ok' } });
  });

  it('reaches Postgres and RabbitMQ and says so on GET /ready', async () => {
    const ready = await pollUntil(
      () => request(app.getHttpServer()).get('/ready'),
      (response) => response.status === 200,
    );
    expect(ready.body).toEqual({ data: { status: 'ok', database: 'up', broker: 'up' } });
  });

  it('serves Prometheus metrics on GET /metrics', async () => {
    const metrics = await request(app.getHttpServer()).get('/metrics').expect(200);
    expect(metrics.headers['content-type']).toMatch(/^text\/plain/);
    expect(metrics.text).toContain('payhook_webhook_attempts_total');
    expect(metrics.text).toContain('payhook_webhook_attempt_duration_seconds');
    expect(metrics.text).toContain('payhook_webhook_queue_lag_seconds');
    expect(metrics.text).toContain('payhook_webhook_endpoint_slots_in_use');
  });
});
