export * from './amqp-connection';
export * from './amqp.module';
export * from './webhook-topology';
