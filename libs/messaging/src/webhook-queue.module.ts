import { Global, Logger, Module, type DynamicModule } from '@nestjs/common';
import type { ClientProxy, CustomTransportStrategy } from '@nestjs/microservices';
import { getDataSourceToken } from '@nestjs/typeorm';
import { sqlRows } from '@payhook/persistence';
import type { AmqpConnectionManager } from 'amqp-connection-manager';
import type { DataSource } from 'typeorm';
import { AMQP_CONNECTION, AmqpModule } from './amqp.module';
import { PostgresQueueClient } from './postgres-queue.client';
import { PostgresQueueServer } from './postgres-queue.server';
import type { QueueServerOptions } from './queue-handling';
import { WebhookQueueClient } from './webhook-queue.client';
import { WebhookQueueServer } from './webhook-queue.server';
import { webhookTopology, type QueueType } from './webhook-topology';

export interface DispatcherQueueOptions extends QueueServerOptions {
  retryScheduleMs: number[];
}

/**
 * The webhook queue an app uses, whichever transport carries it (WEBHOOK_QUEUE): the relay emits
 * through `client()`, the dispatcher handles `server()`'s messages with its `@EventPattern`s, and
 * readiness asks `isUp()`.
 */
export abstract class WebhookQueue {
  abstract readonly kind: 'rabbitmq' | 'postgres';
  abstract client(): ClientProxy;
  abstract server(options: DispatcherQueueOptions): CustomTransportStrategy;
  abstract isUp(): Promise<boolean>;
}

/** A publish not confirmed in time fails; the outbox row stays unpublished for the next pass. */
const CONFIRM_TIMEOUT_MS = 5_000;
/** Beyond the longest handler: how long a claimed Postgres message stays invisible to others. */
const POSTGRES_LEASE_GRACE_MS = 30_000;

class RabbitMqWebhookQueue extends WebhookQueue {
  readonly kind = 'rabbitmq';
  private readonly logger = new Logger('WebhookQueue');

  constructor(
    private readonly connection: AmqpConnectionManager,
    private readonly namespace: string,
    private readonly queueType: QueueType,
  ) {
    super();
  }

  client(): ClientProxy {
    return new WebhookQueueClient({
      connection: this.connection,
      topology: webhookTopology(this.namespace, this.queueType),
      confirmTimeoutMs: CONFIRM_TIMEOUT_MS,
      onError: (error) => this.logger.error(`RabbitMQ channel error: ${String(error)}`),
    });
  }

  server(options: DispatcherQueueOptions): CustomTransportStrategy {
    return new WebhookQueueServer({
      ...options,
      connection: this.connection,
      topology: webhookTopology(this.namespace, this.queueType),
      namespace: this.namespace,
    });
  }

  isUp(): Promise<boolean> {
    return Promise.resolve(this.connection.isConnected());
  }
}

class PostgresWebhookQueue extends WebhookQueue {
  readonly kind = 'postgres';

  constructor(
    private readonly db: DataSource,
    private readonly databaseUrl: string,
  ) {
    super();
  }

  client(): ClientProxy {
    return new PostgresQueueClient(this.db);
  }

  server(options: DispatcherQueueOptions): CustomTransportStrategy {
    return new PostgresQueueServer({
      ...options,
      db: this.db,
      databaseUrl: this.databaseUrl,
      leaseMs: options.drainTimeoutMs + POSTGRES_LEASE_GRACE_MS,
      backOffMs: 1_000,
    });
  }

  isUp(): Promise<boolean> {
    return sqlRows(this.db, 'SELECT 1').then(
      () => true,
      () => false,
    );
  }
}

/** The variables that choose and reach the queue. */
export interface WebhookQueueEnv {
  WEBHOOK_QUEUE: 'rabbitmq' | 'postgres';
  amqpUrls: string[];
  AMQP_NAMESPACE: string;
  queueType: QueueType;
  DATABASE_URL: string;
}

/** Provides WebhookQueue for WEBHOOK_QUEUE: RabbitMQ (ADR 0008) or Postgres (ADR 0009, local mode). */
@Global()
@Module({})
export class WebhookQueueModule {
  static forRoot(env: WebhookQueueEnv, connectionName: string): DynamicModule {
    if (env.WEBHOOK_QUEUE === 'postgres') {
      return {
        module: WebhookQueueModule,
        providers: [
          {
            provide: WebhookQueue,
            useFactory: (db: DataSource) => new PostgresWebhookQueue(db, env.DATABASE_URL),
            inject: [getDataSourceToken()],
          },
        ],
        exports: [WebhookQueue],
      };
    }
    return {
      module: WebhookQueueModule,
      imports: [AmqpModule.forRoot({ urls: env.amqpUrls, connectionName })],
      providers: [
        {
          provide: WebhookQueue,
          useFactory: (connection: AmqpConnectionManager) =>
            new RabbitMqWebhookQueue(connection, env.AMQP_NAMESPACE, env.queueType),
          inject: [AMQP_CONNECTION],
        },
      ],
      exports: [WebhookQueue],
    };
  }
}
