#!/usr/bin/env node
// npm run bench:local: local mode (one process, embedded Postgres, the Postgres webhook queue) under
// the same load as `npm run bench` measures the real services with: create req/s and completion →
// webhook p50/p99. Writes the Local mode section of BENCHMARKS.md.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiClient, machine, peakRssMiB, postLoad, root, startReceiver, stopApp, waitHealthy } from './harness.mjs';
import {
  LATENCY_RATE,
  LATENCY_SECONDS,
  ROUNDS,
  SECONDS,
  completionLatency,
  fmt,
  httpOf,
  log,
  paymentBody,
  range,
  rounds,
} from './measure.mjs';

const ADMIN = 'bench-admin-token-0123456789abcdefgh';
const API_PORT = 3100;
const API = `http://127.0.0.1:${API_PORT}`;
const RECEIVER_PORT = 3199;
const client = apiClient(API);
const http = httpOf(client);

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'payhook-bench-local-'));
  // As root the embedded Postgres runs as the user postgres, which must reach its directory.
  chmodSync(dataDir, 0o755);
  const receiver = await startReceiver(RECEIVER_PORT);
  const local = spawn(process.execPath, [join(root, 'dist/apps/local/src/main.js')], {
    env: {
      ...process.env,
      PAYHOOK_DATA_DIR: dataDir,
      PORT: String(API_PORT),
      DISPATCHER_PORT: '3101',
      ADMIN_TOKEN: ADMIN,
      RATE_LIMIT_PER_SECOND: '0',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitHealthy(`${API}/ready`, 'local mode', 120_000);
    const adminAuth = { authorization: `Bearer ${ADMIN}` };
    const merchant = (await http('POST', '/admin/v1/merchants', { name: 'Bench Shop' }, adminAuth)).data;
    const key = (await http('POST', `/admin/v1/merchants/${merchant.id}/api-keys`, { mode: 'test' }, adminAuth)).data
      .key;
    await http('PUT', '/v1/webhook-endpoint', { url: receiver.url }, { authorization: `Bearer ${key}` });
    const auth = { authorization: `Bearer ${key}` };

    log(`local mode create: POST /v1/payments, 50 connections, ${ROUNDS} × ${SECONDS} s`);
    const create = await rounds(() =>
      postLoad({ url: `${API}/v1/payments`, headers: auth, makeBody: paymentBody, connections: 50, seconds: SECONDS }),
    );
    const latency = await completionLatency(http, key, receiver);
    const rss = peakRssMiB(local.pid);

    const section = `<!-- local:start -->
## Local mode (\`npm run bench:local\`)

\`npm start\` on Node alone: both apps in one process on the embedded PostgreSQL, webhooks through
the Postgres queue (ADR 0009), under the same load as the table above measures the real services
with (autocannon, 50 connections; completions at ${LATENCY_RATE}/s for ${LATENCY_SECONDS} s).

- Machine: ${machine()}
- Command: \`npm run bench:local\` (${new Date().toISOString().slice(0, 10)}), after \`npm run bench\` on the same machine

| measure (local mode) | median (min–max) | detail |
|---|---|---|
| Create payment: POST /v1/payments (req/s) | ${range(create.rps)} | p50 ${range(create.p50)} ms, p99 ${range(create.p99)} ms |
| Completion → webhook (ms) | p50 ${fmt(latency.p50)}, p99 ${fmt(latency.p99)} | ${latency.delivered}/${latency.completed} delivered, ${latency.duplicates} duplicates |
| Peak RSS of the one process (MiB) | ${fmt(rss)} | VmHWM; the embedded Postgres is a process of its own |
<!-- local:end -->`;
    const file = join(root, 'BENCHMARKS.md');
    const current = readFileSync(file, 'utf8');
    const start = current.indexOf('<!-- local:start -->');
    const end = current.indexOf('<!-- local:end -->');
    writeFileSync(
      file,
      start === -1
        ? `${current.trimEnd()}\n\n${section}\n`
        : `${current.slice(0, start)}${section}${current.slice(end + '<!-- local:end -->'.length)}`,
    );
    console.log(`\n${section}\n`);
    log('wrote the Local mode section of BENCHMARKS.md');
  } finally {
    await stopApp(local);
    receiver.child.kill();
    await client.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
