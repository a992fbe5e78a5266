export * from './signature-header';
export * from './standard-webhooks';
export * from './webhook-signature';
