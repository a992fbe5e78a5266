import { loggablePath } from './request-paths';
import { incomingSpanAttributes } from './tracing-sdk';
import { scrubSecrets } from './secret-patterns';

describe('what a log line may say', () => {
  it('masks API keys, signing secrets and bearer tokens inside a message', () => {
    const text =
      'auth failed for Bearer svc_live_4fK9zQ2 (svc_test_abc123), secret whsec_9xY+/=_- and Basic dXNlcjpwYXNz';
    const scrubbed = scrubSecrets(text);
    for (const secret of ['4fK9zQ2', 'abc123', '9xY+/=_-', 'dXNlcjpwYXNz']) expect(scrubbed).not.toContain(secret);
    expect(scrubbed).toContain('svc_test_[redacted]');
    expect(scrubbed).toContain('whsec_[redacted]');
  });

  it('leaves a message without secrets as it is', () => {
    expect(scrubSecrets('POST /v1/payments 201')).toBe('POST /v1/payments 201');
  });

  it('logs a path without its query and without a payment screen suffix or an escrow link token', () => {
    expect(loggablePath('/v1/payments?orderId=1001&customerId=kim')).toBe('/v1/payments');
    expect(loggablePath('/p/Zk3_secretSuffix-123/vouchers?x=1')).toBe('/p/:suffix/vouchers');
    expect(loggablePath('/p/Zk3_secretSuffix-123')).toBe('/p/:suffix');
    expect(loggablePath('/P/Zk3_secretSuffix-123/vouchers')).toBe('/P/:suffix/vouchers');
    expect(loggablePath('/pay/keep')).toBe('/pay/keep');
    expect(loggablePath('/e/q1uSecretTokenOfAnEscrowBuyer_-0123456789ab/confirm')).toBe('/e/:token/confirm');
    expect(loggablePath('/E/q1uSecretTokenOfAnEscrowBuyer_-0123456789ab?lang=en')).toBe('/E/:token');
    expect(loggablePath('/events/keep')).toBe('/events/keep');
    expect(loggablePath('/console/invite/c8VuaK7Gm-rGphrPQArjcjBHLAJv2kS3MpkvfuQVmlE')).toBe('/console/invite/:token');
    expect(loggablePath('/console/invites')).toBe('/console/invites');
  });

  it('traces a path as it logs it', () => {
    expect(incomingSpanAttributes('/p/Zk3_secretSuffix-123?lang=ko')).toEqual({
      'url.path': '/p/:suffix',
      'url.query': undefined,
    });
  });
});
