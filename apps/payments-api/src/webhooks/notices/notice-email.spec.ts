import { describeDuration, noticeEmail } from './notice-email';
import type { ClaimedNotice } from './webhook-notices.repository';
import { retryDelayMs } from './webhook-notices.sender';

const notice = (kind: ClaimedNotice['kind']): ClaimedNotice => ({
  id: '1',
  endpointId: 'we_123',
  merchantId: 'mch_1',
  merchantName: 'My Shop',
  timeZone: 'Asia/Seoul',
  livemode: true,
  kind,
  failingSince: new Date('2026-03-08T06:30:00.000Z'),
  url: 'https://shop.example/webhooks',
  description: 'accounting system',
  lastError: 'HTTP 503',
  createdAt: new Date('2026-03-09T07:00:00.000Z'),
  sendAttempts: 1,
});
const context = { baseUrl: 'https://payhook.example', noticeAfterMs: 86_400_000, disableAfterMs: 5 * 86_400_000 };

describe('describeDuration', () => {
  it('says a threshold as a person reads it', () => {
    expect(describeDuration(1_000)).toBe('1 second');
    expect(describeDuration(90_000)).toBe('1 minute');
    expect(describeDuration(86_400_000)).toBe('24 hours');
    expect(describeDuration(36 * 3_600_000)).toBe('36 hours');
    expect(describeDuration(5 * 86_400_000)).toBe('5 days');
  });
});

describe('noticeEmail', () => {
  it('failing: since when, in the merchant zone, the last error and when payhook would disable it', () => {
    const email = noticeEmail(notice('failing'), ['owner@shop.example'], context);
    expect(email.to).toEqual(['owner@shop.example']);
    expect(email.subject).toBe('payhook: webhooks to shop.example have failed for 24 hours');
    expect(email.text).toContain('My Shop has failed since 2026-03-08 15:30:00 KST');
    expect(email.text).toContain('Endpoint: we_123 at shop.example ("accounting system"), live mode');
    expect(email.text).toContain('Last error: HTTP 503');
    expect(email.text).toContain('still failing at 2026-03-13 15:30:00 KST');
    expect(email.text).toContain('https://payhook.example/console/developers?mode=live');
  });

  it('disabled and recovered: what happened when, and what to do next', () => {
    const disabled = noticeEmail(notice('disabled'), ['owner@shop.example'], context);
    expect(disabled.subject).toBe('payhook: a webhook endpoint at shop.example is disabled');
    expect(disabled.text).toContain('at 2026-03-09 16:00:00 KST');
    expect(disabled.text).toContain('Recover');
    const recovered = noticeEmail({ ...notice('recovered'), lastError: null }, ['owner@shop.example'], context);
    expect(recovered.subject).toBe('payhook: webhooks to shop.example are delivered again');
    expect(recovered.text).toContain('answered again at 2026-03-09 16:00:00 KST');
    expect(recovered.text).not.toContain('Last error');
  });

  it("never carries the URL's path or query, which anyone with a test key chooses", () => {
    const url = 'https://shop.example/ACTION-REQUIRED?your_account_is_suspended=sign_in_at_evil.example';
    for (const kind of ['failing', 'disabled', 'recovered'] as const) {
      const email = noticeEmail({ ...notice(kind), url, description: null }, ['owner@shop.example'], context);
      expect(`${email.subject}\n${email.text}`).not.toMatch(/ACTION|suspended|evil/);
      expect(email.text).toContain('Endpoint: we_123 at shop.example, live mode');
    }
  });
});

describe('retryDelayMs', () => {
  it('doubles from 30 s after each refused send, up to an hour', () => {
    expect([1, 2, 3].map(retryDelayMs)).toEqual([30_000, 60_000, 120_000]);
    expect(retryDelayMs(50)).toBe(3_600_000);
  });
});
