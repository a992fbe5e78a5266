import { Client } from 'pg';

import { localModeDatabaseUrl } from './local-mode-database';
import { createMerchantApp } from './merchant.app';

const DUPLICATE_DATABASE = '42P04';
const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/example_merchant';

/** Reads the environment, stopping with one clear line when something required is missing or wrong. */
function loadConfig() {
  const env = process.env;
  const required = (name: string): string => {
    const value = env[name];
    if (!value) fail(`${name} is required (see examples/merchant/README.md)`);
    return value;
  };
  const port = Number(env.MERCHANT_PORT ?? 4000);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) fail('MERCHANT_PORT must be a port number');
  return {
    payhookBaseUrl: env.PAYHOOK_API_URL ?? 'http://localhost:3000',
    apiKey: required('PAYHOOK_API_KEY'),
    webhookSecret: required('PAYHOOK_WEBHOOK_SECRET'),
    databaseUrl: env.MERCHANT_DATABASE_URL,
    payhookDataDir: env.PAYHOOK_DATA_DIR || '.payhook',
    port,
    publicUrl: env.MERCHANT_PUBLIC_URL ?? `http://localhost:${port}`,
    // Staff routes (an escrow order's shipment) answer 403 without it.
    staffToken: env.MERCHANT_STAFF_TOKEN || undefined,
  };
}

function fail(message: string): never {
  console.error(`example merchant: ${message}`);
  process.exit(1);
}

/** Creates the merchant's database when it does not exist yet, through the server's `postgres` database. */
async function ensureDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!name) fail('MERCHANT_DATABASE_URL names no database');
  url.pathname = '/postgres';
  const admin = new Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      await admin.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`).catch((error: unknown) => {
        if ((error as { code?: string }).code !== DUPLICATE_DATABASE) throw error;
      });
    }
  } finally {
    await admin.end();
  }
}

async function main(): Promise<void> {
  const { payhookDataDir, ...settings } = loadConfig();
  const databaseUrl = settings.databaseUrl ?? (await localModeDatabaseUrl(payhookDataDir)) ?? DEFAULT_DATABASE_URL;
  const config = { ...settings, databaseUrl };
  await ensureDatabase(config.databaseUrl);
  const merchant = await createMerchantApp(config);

  const server = merchant.app.listen(config.port, (error?: Error) => {
    if (error) fail(`cannot listen on port ${config.port}: ${error.message}`);
    console.log(`example merchant listening on :${config.port}; webhook endpoint ${config.publicUrl}/webhooks`);
  });

  const shutdown = () => {
    server.close(() => {
      merchant.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
    server.closeIdleConnections();
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
