export * from './private-address';
export * from './webhook.http-client';
