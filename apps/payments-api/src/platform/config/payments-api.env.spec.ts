import { ConfigError, loadEnv } from '@payhook/config';
import { PaymentsApiEnv } from './payments-api.env';

describe('PaymentsApiEnv ADMIN_TOKEN', () => {
  const load = (env: Record<string, string>) => () => loadEnv(PaymentsApiEnv, env);
  const production = { NODE_ENV: 'production', SECRETS_KEY: Buffer.alloc(32, 5).toString('base64') };

  it('refuses a token under 32 characters in production, in one line naming it', () => {
    expect(load({ ...production, ADMIN_TOKEN: 'short' })).toThrow(
      new ConfigError('Invalid configuration: ADMIN_TOKEN must be at least 32 characters when NODE_ENV=production'),
    );
  });

  it('accepts 32 characters in production, and a short token or none elsewhere', () => {
    expect(load({ ...production, ADMIN_TOKEN: 'x'.repeat(32) })().ADMIN_TOKEN).toHaveLength(32);
    expect(load(production)().ADMIN_TOKEN).toBeUndefined();
    expect(load({ NODE_ENV: 'development', ADMIN_TOKEN: 'local-admin-token' })().ADMIN_TOKEN).toBe('local-admin-token');
  });
});

describe('PaymentsApiEnv DATABASE_READ_URL', () => {
  it('is optional: unset or empty, the lists read DATABASE_URL', () => {
    expect(loadEnv(PaymentsApiEnv, {}).DATABASE_READ_URL).toBeUndefined();
    expect(loadEnv(PaymentsApiEnv, { DATABASE_READ_URL: '' }).DATABASE_READ_URL).toBeUndefined();
  });

  it('takes a postgres:// URL and refuses anything else in one line naming it', () => {
    const url = 'postgres://reader@replica.internal:5432/payhook?application_name=payhook-read';
    expect(loadEnv(PaymentsApiEnv, { DATABASE_READ_URL: url }).DATABASE_READ_URL).toBe(url);
    expect(() => loadEnv(PaymentsApiEnv, { DATABASE_READ_URL: 'mysql://replica/payhook' })).toThrow(
      new ConfigError('Invalid configuration: DATABASE_READ_URL must be a postgres:// URL'),
    );
  });

  it('may list several hosts and prefer a standby among them, which DATABASE_URL may not', () => {
    const url = 'postgres://reader@db-a:5432,db-b:5432/payhook?target_session_attrs=prefer-standby';
    expect(loadEnv(PaymentsApiEnv, { DATABASE_READ_URL: url }).DATABASE_READ_URL).toBe(url);
    expect(() => loadEnv(PaymentsApiEnv, { DATABASE_URL: url })).toThrow(
      new ConfigError(
        'Invalid configuration: DATABASE_URL has target_session_attrs=prefer-standby: with several hosts it must be read-write (the apps write there)',
      ),
    );
  });
});

describe('PaymentsApiEnv TRUST_PROXY', () => {
  const trustProxy = (value: string) => loadEnv(PaymentsApiEnv, { TRUST_PROXY: value }).trustProxy;
  const message =
    'Invalid configuration: TRUST_PROXY must be a hop count or a comma list of addresses, subnets, ' +
    'loopback, linklocal or uniquelocal (not true: that would trust any client to name its own address)';

  it('takes a hop count, or addresses, subnets and the Express names', () => {
    expect(trustProxy('1')).toBe(1);
    expect(trustProxy('loopback, 10.0.0.0/8,fd00::/8 , 192.0.2.7')).toEqual([
      'loopback',
      '10.0.0.0/8',
      'fd00::/8',
      '192.0.2.7',
    ]);
  });

  it('refuses true, false and anything Express could not compile, in one line naming it', () => {
    for (const value of ['true', 'false', 'TRUE', 'proxy.internal', '10.0.0.0/33', '300.1.1.1', 'loopback,']) {
      expect(() => trustProxy(value)).toThrow(new ConfigError(message));
    }
  });
});

describe('PaymentsApiEnv PORT', () => {
  it('takes 0 for any free port (its "listening" line names it), and no negative port', () => {
    expect(loadEnv(PaymentsApiEnv, { PORT: '0' }).PORT).toBe(0);
    expect(() => loadEnv(PaymentsApiEnv, { PORT: '-1' })).toThrow(
      new ConfigError('Invalid configuration: PORT must be a whole number from 0 (any free port) to 65535'),
    );
  });
});

describe('PaymentsApiEnv notices (SMTP_URL, SMTP_FROM, WEBHOOK_NOTICE_AFTER)', () => {
  it('leaves e-mail off by default and notices after 24 hours', () => {
    const env = loadEnv(PaymentsApiEnv, {});
    expect(env.SMTP_URL).toBeUndefined();
    expect(env.smtpHost).toBeNull();
    expect(env.noticeAfterMs).toBe(86_400_000);
  });

  it('takes an smtp(s):// URL and names only its host, never the password', () => {
    const env = loadEnv(PaymentsApiEnv, { SMTP_URL: 'smtps://mailer:s3cret@mail.example:465' });
    expect(env.smtpHost).toBe('mail.example:465');
  });

  it('refuses anything else in one line naming the variable and not its value', () => {
    for (const value of ['http://mail.example', 'mail.example:587', 'smtp://']) {
      expect(() => loadEnv(PaymentsApiEnv, { SMTP_URL: value })).toThrow(
        new ConfigError(
          'Invalid configuration: SMTP_URL must be an smtp:// or smtps:// URL with a host, such as smtp://user:password@mail.example:587',
        ),
      );
    }
    expect(() => loadEnv(PaymentsApiEnv, { WEBHOOK_NOTICE_AFTER: '500ms' })).toThrow(
      new ConfigError('Invalid configuration: WEBHOOK_NOTICE_AFTER must be a duration from 1s, such as 24h or 2d'),
    );
    expect(() => loadEnv(PaymentsApiEnv, { SMTP_FROM: 'not an address' })).toThrow(ConfigError);
  });
});
