export * from './signature-header';
export * from './webhook-signature';
