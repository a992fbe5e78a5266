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
