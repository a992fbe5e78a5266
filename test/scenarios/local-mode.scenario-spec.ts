import { verifyWebhook } from '@payhook/sdk';
import { execFile } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

interface Run {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
}

interface Readiness {
  status: number;
  body: unknown;
}

interface Observed {
  dataDir: string;
  refusals: Run[];
  first: Run & { ready: { api: Readiness; dispatcher: Readiness } };
  second: Run;
  third: { stdout: string; stderr: string };
  stoppedAt: number;
  paymentId: string;
  signingSecret: string;
  requests: { at: number; answeredAt: number; headers: Record<string, string>; body: string; status: number }[];
  event: { id: string; type: string; deliveryStatus: string };
  reachableFromLan: { byDefault: boolean; withHost: boolean };
  slow: {
    paymentId: string;
    ctrlCAt: number;
    event: { id: string; deliveryStatus: string; attempts: { responseStatus: number | null }[] };
    queued: number;
  };
  example: Run & { database: number };
  killed: { postgresPid: number; stoppedWithinMs: number };
}

/** Not loopback: an address the spec gives the namespace's lo, as a LAN address of the machine. */
const LAN_ADDRESS = '192.168.77.1';

/**
 * Local mode on a machine with Node alone: the scenario runs in a network namespace
 * of its own, where nothing answers at the PostgreSQL and RabbitMQ defaults, and uses the README's
 * run command (`ADMIN_TOKEN=… npm start`; `npm install` is done already) as a newcomer would.
 */
describe('npm start with nothing at the PostgreSQL and RabbitMQ defaults', () => {
  let observed: Observed;

  beforeAll(async () => {
    const { stdout } = await promisify(execFile)(
      'unshare',
      [
        '-n',
        'sh',
        '-c',
        `ip link set lo up && ip addr add ${LAN_ADDRESS}/32 dev lo && exec node test/support/local-mode-scenario.mjs`,
      ],
      // Three builds (the apps, local mode, the example merchant) and four starts, on a busy machine too.
      { maxBuffer: 64 * 1024 * 1024, timeout: 540_000 },
    );
    observed = JSON.parse(stdout.trim().split('\n').pop()!) as Observed;
  }, 560_000);

  afterAll(async () => {
    if (observed) await rm(observed.dataDir, { recursive: true, force: true });
  });

  it('starts in local mode and says so, with where the data lives and how to use real services, first', () => {
    const [firstLine] = observed.first.stdout.split('\n').filter((line) => !line.startsWith('>') && line.trim());
    expect(firstLine).toContain('payhook: local mode');
    expect(firstLine).toContain(observed.dataDir);
    expect(firstLine).toMatch(/DATABASE_URL and AMQP_URL/);
  });

  it("says in one line per app where it listens, without Nest's route list", () => {
    expect(observed.first.stdout).toMatch(
      /payments-api listening: API http:\/\/\S+\/v1, console \S+\/console, docs \S+\/docs, health \S+\/health/,
    );
    expect(observed.first.stdout).toMatch(/webhook-dispatcher listening: health http:\/\/\S+\/health/);
    expect(observed.first.stdout).not.toMatch(/Mapped \{|RoutesResolver/);
  });

  it("logs in one format, pino's, and not Nest's own lines beside it or its start twice", () => {
    for (const run of [observed.first, observed.second]) {
      expect(run.stdout + run.stderr).not.toMatch(/\[Nest\] \d+/);
      expect(run.stdout).not.toContain('Nest application successfully started');
      expect(run.stdout + run.stderr).not.toContain('DataSourceNameRegistry');
    }
    // One process, one service on every line (Nest's logger is the process's, not the first app's).
    for (const run of [observed.first, observed.second]) {
      expect(run.stdout).not.toMatch(/"service":"(payments-api|webhook-dispatcher)"/);
    }
    expect(observed.second.stdout).toMatch(/webhook attempt 2: delivered \{"service":"payhook",/);
    // Nest's lines, the app's announcements and the request lines all come through pino-pretty.
    expect(observed.first.stdout).toMatch(/^\[[\d:.]+\] INFO: payments-api listening:/m);
    expect(observed.second.stdout).toMatch(/^\[[\d:.]+\] INFO: webhook attempt 2: delivered/m);
  });

  it('delivers the signed payment.completed webhook, and its retry after a restart with the same event id', () => {
    const [failed, retried] = observed.requests;
    expect(observed.requests).toHaveLength(3);
    expect([failed.status, retried.status]).toEqual([500, 200]);
    for (const request of [failed, retried]) {
      const event = verifyWebhook(request.body, request.headers['service-signature'], observed.signingSecret);
      expect(event).toMatchObject({ type: 'payment.completed', data: { paymentId: observed.paymentId } });
    }
    expect(retried.headers['service-event-id']).toBe(failed.headers['service-event-id']);
    expect(observed.event).toMatchObject({ id: failed.headers['service-event-id'], deliveryStatus: 'succeeded' });
    // The retry came from the next process, not from the first before it stopped: only the second
    // run logs an attempt 2, and the merchant saw it after the first run had exited.
    expect(observed.first.stdout).not.toContain('webhook attempt 2:');
    expect(observed.second.stdout).toContain('webhook attempt 2: delivered');
    expect(retried.at).toBeGreaterThan(observed.stoppedAt);
  });

  it('stops cleanly on Ctrl-C: deliveries drained, the database stopped, no error on the way', () => {
    for (const run of [observed.first, observed.second]) {
      expect(run.stdout).toContain(`payhook: stopped; the data stays in ${observed.dataDir}`);
      expect(run.stdout + run.stderr).not.toMatch(/\bERROR\b|FATAL|cannot start|Unhandled/);
    }
  });

  it('lets a delivery in flight at Ctrl-C finish: recorded once as delivered, and not sent again after a restart', () => {
    const { slow } = observed;
    const deliveries = observed.requests.filter(
      (request) => (JSON.parse(request.body) as { data: { paymentId: string } }).data.paymentId === slow.paymentId,
    );
    expect(deliveries).toHaveLength(1);
    // The merchant answered only after the Ctrl-C had reached the group and the API had stopped.
    expect(deliveries[0].answeredAt).toBeGreaterThan(slow.ctrlCAt);
    expect(deliveries[0].status).toBe(200);
    expect(slow.event).toMatchObject({ id: deliveries[0].headers['service-event-id'], deliveryStatus: 'succeeded' });
    expect(slow.event.attempts.map((attempt) => attempt.responseStatus)).toEqual([200]);
    // Nothing left in the queue that would send it again.
    expect(slow.queued).toBe(0);
  });

  it('stops the embedded PostgreSQL, in its own process group, when payhook is killed outright (kill -9)', () => {
    expect(observed.killed.postgresPid).toBeGreaterThan(0);
    expect(observed.killed.stoppedWithinMs).toBeLessThan(60_000);
  });

  it('says on /ready that there is no broker to wait for: the queue is in the database', () => {
    for (const probe of [observed.first.ready.api, observed.first.ready.dispatcher]) {
      expect(probe).toEqual({ status: 200, body: { data: { status: 'ok', database: 'up', broker: 'not used' } } });
    }
  });

  it('listens on 127.0.0.1 only, unless HOST says otherwise', () => {
    expect(observed.reachableFromLan).toEqual({ byDefault: false, withHost: true });
  });

  it('logs a webhook attempt as one line', () => {
    const lines = observed.first.stdout.split('\n');
    const attempt = lines.find((line) => line.includes('webhook attempt 1: HTTP 500'));
    // Its fields on the same line, as pino-pretty writes them.
    expect(attempt).toMatch(/webhook attempt 1: HTTP 500 \{.*"attempt":1,.*"responseStatus":500,.*"durationMs":\d+/);
    expect(lines.filter((line) => /^\s*[{}]\s*$|Object\(\d+\)/.test(line))).toEqual([]);
  });

  it('says where its database is without printing the password, and the example merchant uses it', async () => {
    const password = (await readFile(join(observed.dataDir, 'postgres-password'), 'utf8')).trim();
    const [, port] = /^payhook: embedded PostgreSQL at postgres:\/\/postgres:…@127\.0\.0\.1:(\d+)\/payhook /m.exec(
      observed.first.stdout,
    )!;
    expect(await readFile(join(observed.dataDir, 'database-url'), 'utf8')).toBe(
      `postgres://postgres:${password}@127.0.0.1:${port}/payhook\n`,
    );
    for (const run of [observed.first, observed.second, observed.third]) {
      expect(run.stdout + run.stderr).not.toContain(password);
    }
    expect(observed.example.stdout).toContain("database example_merchant on payhook's local-mode PostgreSQL");
    expect(observed.example.stdout).toContain('example merchant listening on :4001');
    expect(observed.example.database).toBe(1);
  });

  it('never falls back to local mode in production or with a URL set: one clear line per service instead', () => {
    const [production, withUrl] = observed.refusals;
    for (const refusal of observed.refusals) {
      expect(refusal.code).toBe(1);
      expect(refusal.stdout + refusal.stderr).not.toContain('local mode');
      expect(refusal.stderr).not.toMatch(/\n\s+at /);
    }
    expect(production.stderr).toMatch(/PostgreSQL does not answer at 127\.0\.0\.1:5432 .*set DATABASE_URL/);
    expect(production.stderr).toMatch(/RabbitMQ does not answer at 127\.0\.0\.1:5672 .*set AMQP_URL/);
    expect(withUrl.stderr).toMatch(/PostgreSQL does not answer at 127\.0\.0\.1:5432 .*set DATABASE_URL/);
  });
});
