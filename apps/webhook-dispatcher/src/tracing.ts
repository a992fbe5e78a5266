import { startTracing } from '@payhook/observability';

// Imported first by main.ts: the instrumentations patch http, express, pg, amqplib and undici as they load.
startTracing('webhook-dispatcher');
