export * from './common.env';
export * from './duration';
export * from './env-transforms';
export * from './load-env';
export * from './reachability';
export * from './sealed-secret';
export * from './secrets-key';
export * from './startup-progress';
