import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { PaymentsApiHarness } from '../support/payments-api.harness';
import { pollUntil } from '../support/poll-until';

/** Every line the app writes. */
class CapturedLines extends Writable {
  readonly lines: string[] = [];

  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }
}

/**
 * Issue 25 (7): behind a proxy without TRUST_PROXY every client shares the proxy's address, so one
 * client's failed logins pause everyone's. Production says so once, when forwarded requests arrive.
 */
describe('X-Forwarded-For without TRUST_PROXY in production', () => {
  let api: PaymentsApiHarness;
  const log = new CapturedLines();
  const warnings = () => log.lines.filter((line) => line.includes('TRUST_PROXY is unset'));
  const requestLines = () => log.lines.filter((line) => line.includes('GET /no-such-page'));

  beforeAll(async () => {
    api = await PaymentsApiHarness.start(
      {
        NODE_ENV: 'production',
        SECRETS_KEY: randomBytes(32).toString('base64'),
        ADMIN_TOKEN: randomBytes(24).toString('base64url'),
        LOG_FORMAT: 'json',
      },
      undefined,
      log,
    );
  });
  afterAll(() => api.stop());

  it('warns on the first forwarded request only, without the forwarded address', async () => {
    await api.http().get('/no-such-page').expect(404);
    await api.http().get('/no-such-page').set('X-Forwarded-For', '198.51.100.23').expect(404);
    await api.http().get('/no-such-page').set('X-Forwarded-For', '198.51.100.24').expect(404);

    // The third request's line is written after any warning of the requests before it.
    await pollUntil(
      async () => requestLines().length,
      (count) => count >= 3,
    );
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toContain('"level":40');
    // The connection cap sees one client too: the whole site shares it.
    expect(warnings()[0]).toContain('one client for MAX_CONNECTIONS_PER_CLIENT');
    expect(log.lines.join('\n')).not.toContain('198.51.100.2');
  }, 60_000);
});
