import { Global, Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import type { AmqpConnectionManager } from 'amqp-connection-manager';
import { createAmqpConnection } from './amqp-connection';

export const AMQP_CONNECTION = Symbol('AMQP_CONNECTION');
const CLOSE_TIMEOUT_MS = 5_000;

/** An app's one RabbitMQ connection; it reconnects by itself after a broker restart. */
@Global()
@Module({})
export class AmqpModule implements OnApplicationShutdown {
  constructor(@Inject(AMQP_CONNECTION) private readonly connection: AmqpConnectionManager) {}

  static forRoot(options: { urls: string[]; connectionName: string }): DynamicModule {
    return {
      module: AmqpModule,
      providers: [
        { provide: AMQP_CONNECTION, useFactory: () => createAmqpConnection(options.urls, options.connectionName) },
      ],
      exports: [AMQP_CONNECTION],
    };
  }

  /**
   * Bounded: a close the broker does not answer (it is down or partitioned during a shutdown) must
   * not keep the process alive; anything unacknowledged is requeued by the broker when the socket goes.
   */
  async onApplicationShutdown(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.connection.close().catch(() => undefined),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_TIMEOUT_MS))),
    ]);
    clearTimeout(timer);
  }
}
