import type { INestApplication, LogLevel, LoggerService } from '@nestjs/common';
import { loadEnv } from '@payhook/config';
import type { ApiKeyMode } from '@payhook/contracts';
import type { AddressInfo } from 'node:net';
import { databaseClient } from '@payhook/persistence';
import type { Client } from 'pg';
import type { DestinationStream } from 'pino';
import request from 'supertest';
import { createPaymentsApi } from '../../apps/payments-api/src/app.setup';
import { OPENAPI_DOCUMENTS, type OpenApiDocuments } from '../../apps/payments-api/src/surfaces/docs/openapi.controller';
import { responseConformance } from './openapi-validator';
import { PaymentsApiEnv } from '../../apps/payments-api/src/platform/config/payments-api.env';
import { listenWithBacklog } from '../../apps/payments-api/src/platform/http/connection-limits';
import { testAmqpNamespace, testAmqpUrl, testDatabaseUrl, testWebhookQueue } from './test-env';

export const ADMIN_TOKEN = 'test-admin-token';

/** A payments-api booted exactly as main.ts boots it, on this run's database. */
export class PaymentsApiHarness {
  private constructor(
    readonly app: INestApplication,
    readonly env: PaymentsApiEnv,
    private readonly db: Client,
    /** Answers that the OpenAPI document does not describe; stop() fails on any. */
    readonly openApiViolations: string[],
  ) {}

  static async start(
    overrides: Record<string, string> = {},
    logger: LogLevel[] | LoggerService = ['error', 'warn'],
    /** Every line of the app as pino writes it (Nest's own too, instead of through `logger`). */
    logDestination?: DestinationStream,
  ): Promise<PaymentsApiHarness> {
    const env = loadEnv(PaymentsApiEnv, {
      DATABASE_URL: testDatabaseUrl(),
      AMQP_URL: testAmqpUrl(),
      AMQP_NAMESPACE: testAmqpNamespace(),
      WEBHOOK_QUEUE: testWebhookQueue(),
      // The run's shared namespace holds classic queues, also for a spec that sets NODE_ENV=production.
      AMQP_QUEUE_TYPE: 'classic',
      // Receivers in the specs listen on 127.0.0.1.
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      ADMIN_TOKEN,
      PAY_URL: 'http://pay.test',
      NODE_ENV: 'test',
      // Request lines only when a spec reads them; warnings and errors always.
      LOG_LEVEL: logDestination ? 'info' : 'warn',
      ...overrides,
    });
    const app = await createPaymentsApi(env, logDestination ? { logDestination } : { logger });
    // Every answer of a described operation is held to its OpenAPI document (issue 15).
    const documents = app.get<OpenApiDocuments>(OPENAPI_DOCUMENTS);
    const violations: string[] = [];
    for (const document of [documents.merchant, documents.admin]) {
      app.use(responseConformance(document as never, violations));
    }
    await listenWithBacklog(app, 0, '127.0.0.1');
    // On the host DATABASE_URL's list points to now, when it lists several.
    const db = databaseClient(env.DATABASE_URL);
    // A spec that takes the database away must not crash the worker through this side connection.
    db.on('error', () => undefined);
    await db.connect();
    return new PaymentsApiHarness(app, env, db, violations);
  }

  async stop(): Promise<void> {
    await this.db.end();
    await this.app.close();
    if (this.openApiViolations.length > 0) {
      throw new Error(
        `answers the OpenAPI document does not describe:\n${[...new Set(this.openApiViolations)].join('\n')}`,
      );
    }
  }

  /** The API's address on 127.0.0.1, for clients that are not supertest (the SDK, a browser). */
  get baseUrl(): string {
    const address = this.app.getHttpServer().address() as AddressInfo;
    return `http://127.0.0.1:${address.port}`;
  }

  http() {
    return request(this.app.getHttpServer());
  }

  /** Requests from a browser set to English (the console's pages follow the browser's language). */
  inEnglish() {
    return {
      get: (path: string) => this.http().get(path).set('Accept-Language', 'en'),
      post: (path: string) => this.http().post(path).set('Accept-Language', 'en'),
    };
  }

  admin() {
    return {
      get: (path: string) => this.http().get(path).set('Authorization', `Bearer ${ADMIN_TOKEN}`),
      post: (path: string) => this.http().post(path).set('Authorization', `Bearer ${ADMIN_TOKEN}`),
      patch: (path: string) => this.http().patch(path).set('Authorization', `Bearer ${ADMIN_TOKEN}`),
      delete: (path: string) => this.http().delete(path).set('Authorization', `Bearer ${ADMIN_TOKEN}`),
    };
  }

  /** Requests with a merchant's API key. */
  as(merchant: { key: string }) {
    const auth = `Bearer ${merchant.key}`;
    return {
      get: (path: string) => this.http().get(path).set('Authorization', auth),
      post: (path: string) => this.http().post(path).set('Authorization', auth),
      put: (path: string) => this.http().put(path).set('Authorization', auth),
      patch: (path: string) => this.http().patch(path).set('Authorization', auth),
      delete: (path: string) => this.http().delete(path).set('Authorization', auth),
    };
  }

  /** Direct SQL for checks a user cannot make through the API (rows left behind, counts). */
  async sql<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
    return (await this.db.query(text, params)).rows as T[];
  }

  /** A fresh merchant of its own for each test, with a key in the given mode. */
  async merchantWithKey(mode: ApiKeyMode = 'test', options: { live?: boolean } = {}): Promise<TestMerchant> {
    const merchant = await this.admin().post('/admin/v1/merchants').send({ name: 'Test Shop' }).expect(201);
    const merchantId = merchant.body.data.id as string;
    if (options.live) {
      // The onboarding gate does not exist yet; tests that need a live merchant set it directly.
      await this.sql(`UPDATE merchants SET status = 'live' WHERE id = $1`, [merchantId]);
    }
    const key = await this.issueKey(merchantId, mode);
    return { merchantId, ...key };
  }

  async issueKey(merchantId: string, mode: ApiKeyMode): Promise<{ key: string; keyId: string }> {
    const issued = await this.admin().post(`/admin/v1/merchants/${merchantId}/api-keys`).send({ mode }).expect(201);
    return { key: issued.body.data.key as string, keyId: issued.body.data.id as string };
  }
}

export interface TestMerchant {
  merchantId: string;
  key: string;
  keyId: string;
}

let sequence = 0;

/** A valid create body with a unique orderId; override any field. */
export function paymentBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  sequence += 1;
  return {
    orderId: `order-${process.pid}-${Date.now()}-${sequence}`,
    customerId: 'customer-1',
    amount: 15000,
    currency: 'KRW',
    returnUrl: 'https://shop.example/return?from=payhook',
    ...overrides,
  };
}
