import { ConfigError, loadEnv } from '@payhook/config';
import { WebhookDispatcherEnv } from './webhook-dispatcher.env';

describe('WebhookDispatcherEnv DISPATCHER_HOST', () => {
  it('listens on loopback unless told otherwise', () => {
    expect(loadEnv(WebhookDispatcherEnv, {}).DISPATCHER_HOST).toBe('127.0.0.1');
    expect(loadEnv(WebhookDispatcherEnv, { DISPATCHER_HOST: '0.0.0.0' }).DISPATCHER_HOST).toBe('0.0.0.0');
  });

  it('refuses what is not an IP address, in one line naming it', () => {
    expect(() => loadEnv(WebhookDispatcherEnv, { DISPATCHER_HOST: 'everywhere' })).toThrow(
      new ConfigError('Invalid configuration: DISPATCHER_HOST must be an IP address, such as 127.0.0.1 or 0.0.0.0'),
    );
  });
});

describe('WebhookDispatcherEnv DISPATCHER_PORT', () => {
  it('takes 0 for any free port (its "listening" line names it), and no negative port', () => {
    expect(loadEnv(WebhookDispatcherEnv, { DISPATCHER_PORT: '0' }).DISPATCHER_PORT).toBe(0);
    expect(() => loadEnv(WebhookDispatcherEnv, { DISPATCHER_PORT: '-1' })).toThrow(
      new ConfigError('Invalid configuration: DISPATCHER_PORT must be a whole number from 0 (any free port) to 65535'),
    );
  });
});

describe('WebhookDispatcherEnv WEBHOOK_ATTEMPT_RETENTION', () => {
  it('keeps attempts 30 days unless told otherwise, and takes a duration from 1m', () => {
    expect(loadEnv(WebhookDispatcherEnv, {}).attemptRetentionMs).toBe(30 * 86_400_000);
    expect(loadEnv(WebhookDispatcherEnv, { WEBHOOK_ATTEMPT_RETENTION: '1m' }).attemptRetentionMs).toBe(60_000);
    expect(() => loadEnv(WebhookDispatcherEnv, { WEBHOOK_ATTEMPT_RETENTION: '30s' })).toThrow(
      new ConfigError(
        'Invalid configuration: WEBHOOK_ATTEMPT_RETENTION must be a duration from 1m, such as 24h or 30d',
      ),
    );
  });
});
