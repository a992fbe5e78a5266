import { startTracing } from '@payhook/observability';

// Imported first by main.ts: the instrumentations patch http, express, pg and undici as they load.
startTracing('payhook-local');
