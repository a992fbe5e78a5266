export * from './amqp-connection';
export * from './amqp.module';
export * from './webhook-topology';
export * from './webhook-queue.server';
export * from './webhook-queue.client';
