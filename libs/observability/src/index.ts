export * from './log-fields';
export * from './logging';
export * from './message-headers';
export * from './request-paths';
export * from './secret-patterns';
export * from './tracing';
export * from './tracing-sdk';
export * from './startup-lines';
