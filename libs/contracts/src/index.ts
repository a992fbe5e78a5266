export * from './envelope.contract';
export * from './error-codes';
export * from './event.contract';
export * from './ids';
export * from './merchant.contract';
export * from './payment.contract';
export * from './refund.contract';
export * from './webhook-delivery.message';
