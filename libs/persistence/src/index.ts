export * from './data-source';
export * from './database-url';
export * from './ensure-database';
export * from './notification-listener';
export * from './pg-errors';
export * from './read-database';
export * from './sql';
export * from './typeorm-root.module';
