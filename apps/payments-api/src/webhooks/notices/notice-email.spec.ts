import { englishWords } from '../../../../../test/support/korean-text';
import { noticeMailT } from './messages';
import { describeDuration, noticeEmail } from './notice-email';
import type { ClaimedNotice } from './webhook-notices.repository';
import { byLanguage, retryDelayMs } from './webhook-notices.sender';

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
    const en = noticeMailT('en');
    expect(describeDuration(en, 1_000)).toBe('1 second');
    expect(describeDuration(en, 90_000)).toBe('1 minute');
    expect(describeDuration(en, 86_400_000)).toBe('24 hours');
    expect(describeDuration(en, 36 * 3_600_000)).toBe('36 hours');
    expect(describeDuration(en, 5 * 86_400_000)).toBe('5 days');
  });

  it('in Korean too', () => {
    const ko = noticeMailT('ko');
    expect(describeDuration(ko, 1_000)).toBe('1초');
    expect(describeDuration(ko, 90_000)).toBe('1분');
    expect(describeDuration(ko, 86_400_000)).toBe('24시간');
    expect(describeDuration(ko, 5 * 86_400_000)).toBe('5일');
  });
});

describe('noticeEmail', () => {
  it('failing: since when, in the merchant zone, the last error and when payhook would disable it', () => {
    const email = noticeEmail(notice('failing'), ['owner@shop.example'], context, 'en');
    expect(email.to).toEqual(['owner@shop.example']);
    expect(email.subject).toBe('payhook: webhooks to shop.example have failed for 24 hours');
    expect(email.text).toContain('My Shop has failed since 2026-03-08 15:30:00 KST');
    expect(email.text).toContain('Endpoint: we_123 at shop.example ("accounting system"), live mode');
    expect(email.text).toContain('Last error: HTTP 503');
    expect(email.text).toContain('still failing at 2026-03-13 15:30:00 KST');
    expect(email.text).toContain('https://payhook.example/console/developers?mode=live');
  });

  it('disabled and recovered: what happened when, and what to do next', () => {
    const disabled = noticeEmail(notice('disabled'), ['owner@shop.example'], context, 'en');
    expect(disabled.subject).toBe('payhook: a webhook endpoint at shop.example is disabled');
    expect(disabled.text).toContain('at 2026-03-09 16:00:00 KST');
    expect(disabled.text).toContain('Recover');
    const recovered = noticeEmail({ ...notice('recovered'), lastError: null }, ['owner@shop.example'], context, 'en');
    expect(recovered.subject).toBe('payhook: webhooks to shop.example are delivered again');
    expect(recovered.text).toContain('answered again at 2026-03-09 16:00:00 KST');
    expect(recovered.text).not.toContain('Last error');
  });

  it("never carries the URL's path or query, which anyone with a test key chooses", () => {
    const url = 'https://shop.example/ACTION-REQUIRED?your_account_is_suspended=sign_in_at_evil.example';
    for (const kind of ['failing', 'disabled', 'recovered'] as const) {
      const email = noticeEmail({ ...notice(kind), url, description: null }, ['owner@shop.example'], context, 'en');
      expect(`${email.subject}\n${email.text}`).not.toMatch(/ACTION|suspended|evil/);
      expect(email.text).toContain('Endpoint: we_123 at shop.example, live mode');
      const korean = noticeEmail({ ...notice(kind), url, description: null }, ['owner@shop.example'], context, 'ko');
      expect(`${korean.subject}\n${korean.text}`).not.toMatch(/ACTION|suspended|evil/);
    }
  });
});

describe('noticeEmail in Korean', () => {
  /** What the e-mail carries as it is in any language: the fixture's names and an error code. */
  const data = ['My Shop', 'we_123', 'shop.example', 'accounting system', 'endpoint_disabled'];

  it.each(['failing', 'disabled', 'recovered'] as const)('%s: all in Korean, every placeholder filled', (kind) => {
    const email = noticeEmail(notice(kind), ['owner@shop.example'], context, 'ko');
    const all = `${email.subject}\n${email.text}`;
    // A key or a placeholder left as it is would show as Latin words or braces.
    expect(all).not.toMatch(/[{}]/);
    expect(englishWords(all, data)).toEqual([]);
    expect(email.subject).toMatch(/^payhook: shop\.example /);
    expect(email.text).toContain('엔드포인트: we_123 (shop.example, "accounting system"), 라이브 모드');
    expect(email.text).toContain('https://payhook.example/console/developers?mode=live\n');
  });

  it('says when, in the merchant zone, and what comes next', () => {
    const failing = noticeEmail(notice('failing'), ['owner@shop.example'], context, 'ko');
    expect(failing.subject).toBe('payhook: shop.example 웹훅 전송이 24시간 동안 실패하고 있습니다');
    expect(failing.text).toContain('My Shop의 웹훅 엔드포인트로 보낸 자동 전송이 2026-03-08 15:30:00 KST부터');
    expect(failing.text).toContain('마지막 오류: HTTP 503');
    expect(failing.text).toContain('2026-03-13 15:30:00 KST에도');
    const disabled = noticeEmail({ ...notice('disabled'), livemode: false }, ['owner@shop.example'], context, 'ko');
    expect(disabled.subject).toBe('payhook: shop.example 웹훅 엔드포인트가 꺼졌습니다');
    expect(disabled.text).toContain('2026-03-09 16:00:00 KST에');
    expect(disabled.text).toContain('테스트 모드');
    const recovered = noticeEmail({ ...notice('recovered'), description: null }, ['owner@shop.example'], context, 'ko');
    expect(recovered.text).toContain('엔드포인트: we_123 (shop.example), 라이브 모드\n\n');
    expect(recovered.text).not.toContain('마지막 오류');
  });
});

describe('byLanguage', () => {
  it("groups the owners' addresses by their language, Korean for an owner without one", () => {
    const groups = byLanguage([
      { email: 'a@shop.example', locale: null },
      { email: 'b@shop.example', locale: 'en' },
      { email: 'c@shop.example', locale: 'ko' },
    ]);
    expect([...groups]).toEqual([
      ['ko', ['a@shop.example', 'c@shop.example']],
      ['en', ['b@shop.example']],
    ]);
  });
});

describe('retryDelayMs', () => {
  it('doubles from 30 s after each refused send, up to an hour', () => {
    expect([1, 2, 3].map(retryDelayMs)).toEqual([30_000, 60_000, 120_000]);
    expect(retryDelayMs(50)).toBe(3_600_000);
  });
});
