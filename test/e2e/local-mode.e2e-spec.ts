import { verifyWebhook } from '@payhook/sdk';
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { promisify } from 'node:util';

interface Run {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
}

interface Observed {
  dataDir: string;
  refusals: Run[];
  first: Run;
  second: Run;
  stoppedAt: number;
  retryWaitMs: number;
  paymentId: string;
  signingSecret: string;
  requests: { at: number; headers: Record<string, string>; body: string; status: number }[];
  event: { id: string; type: string; deliveryStatus: string };
}

/**
 * Local mode (DESIGN.md §8) on a machine with Node alone: the scenario runs in a network namespace
 * of its own, where nothing answers at the PostgreSQL and RabbitMQ defaults, and uses the README's
 * run command (`ADMIN_TOKEN=… npm start`; `npm install` is done already) as a newcomer would.
 */
describe('npm start with nothing at the PostgreSQL and RabbitMQ defaults', () => {
  let observed: Observed;

  beforeAll(async () => {
    const { stdout } = await promisify(execFile)(
      'unshare',
      ['-n', 'sh', '-c', 'ip link set lo up && exec node test/support/local-mode-scenario.mjs'],
      { maxBuffer: 64 * 1024 * 1024, timeout: 300_000 },
    );
    observed = JSON.parse(stdout.trim().split('\n').pop()!) as Observed;
  }, 320_000);

  afterAll(async () => {
    if (observed) await rm(observed.dataDir, { recursive: true, force: true });
  });

  it('starts in local mode and says so, with where the data lives and how to use real services, first', () => {
    const [firstLine] = observed.first.stdout.split('\n').filter((line) => !line.startsWith('>') && line.trim());
    expect(firstLine).toContain('payhook: local mode');
    expect(firstLine).toContain(observed.dataDir);
    expect(firstLine).toMatch(/DATABASE_URL and AMQP_URL/);
  });

  it('delivers the signed payment.completed webhook, and its retry after a restart with the same event id', () => {
    const [failed, retried] = observed.requests;
    expect(observed.requests).toHaveLength(2);
    expect([failed.status, retried.status]).toEqual([500, 200]);
    for (const request of [failed, retried]) {
      const event = verifyWebhook(request.body, request.headers['service-signature'], observed.signingSecret);
      expect(event).toMatchObject({ type: 'payment.completed', data: { paymentId: observed.paymentId } });
    }
    expect(retried.headers['service-event-id']).toBe(failed.headers['service-event-id']);
    expect(observed.event).toMatchObject({ id: failed.headers['service-event-id'], deliveryStatus: 'succeeded' });
    // The process was gone before the retry was due, and the retry came from the next one.
    expect(observed.stoppedAt).toBeLessThan(failed.at + observed.retryWaitMs * 0.8);
    expect(retried.at).toBeGreaterThan(observed.stoppedAt);
  });

  it('stops cleanly on Ctrl-C: deliveries drained, the database stopped, no error on the way', () => {
    for (const run of [observed.first, observed.second]) {
      expect(run.stdout).toContain(`payhook: stopped; the data stays in ${observed.dataDir}`);
      expect(run.stdout + run.stderr).not.toMatch(/\bERROR\b|cannot start|Unhandled/);
    }
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
