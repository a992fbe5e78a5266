export * from './log-fields';
export * from './logging';
export * from './message-headers';
export * from './secret-patterns';
