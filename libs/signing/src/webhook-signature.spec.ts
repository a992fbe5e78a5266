import { createHmac } from 'node:crypto';

import {
  computeSignature,
  DEFAULT_TOLERANCE_SECONDS,
  signWebhook,
  verifyWebhookSignature,
  WebhookSignatureError,
  type WebhookSignatureErrorReason,
} from './webhook-signature';

const SECRET = 'whsec_test_secret';
const NOW = 1700000000;
const BODY = '{"id":"evt_1","type":"payment.completed"}';
// Computed out of band: printf '%s' '1700000000.<BODY>' | openssl dgst -sha256 -hmac 'whsec_test_secret'
const BODY_SIGNATURE_AT_NOW = 'a5277998323d05150f06cd9fb663fa1aa5e2d684a4f34d4ed81fb5e7b0fd93c5';

function referenceHmac(secret: string, payload: string | Buffer): string {
  return createHmac('sha256', secret).update(payload).digest('hex');
}

function reasonOf(run: () => void): WebhookSignatureErrorReason | 'no_error' {
  try {
    run();
  } catch (error) {
    if (error instanceof WebhookSignatureError) return error.reason;
    throw error;
  }
  return 'no_error';
}

function verifyReason(
  rawBody: Buffer | string,
  header: string | undefined,
  secret = SECRET,
  nowSeconds = NOW,
): WebhookSignatureErrorReason | 'no_error' {
  return reasonOf(() => verifyWebhookSignature(rawBody, header, secret, { nowSeconds }));
}

describe('computeSignature', () => {
  it('matches an HMAC-SHA256 computed independently over `${t}.${body}`', () => {
    expect(computeSignature(SECRET, NOW, BODY)).toBe(referenceHmac(SECRET, `${NOW}.${BODY}`));
  });

  it('matches a fixed vector computed with openssl', () => {
    expect(computeSignature(SECRET, NOW, BODY)).toBe(BODY_SIGNATURE_AT_NOW);
  });

  it('gives the same result for a Buffer and a string body', () => {
    expect(computeSignature(SECRET, NOW, Buffer.from(BODY, 'utf8'))).toBe(computeSignature(SECRET, NOW, BODY));
  });

  it('signs multi-byte UTF-8 bodies over their UTF-8 bytes', () => {
    const body = '{"note":"결제 완료 ✓ — café 🎉"}';
    const bytes = Buffer.from(body, 'utf8');
    expect(bytes.length).toBeGreaterThan(body.length);
    const expected = referenceHmac(SECRET, Buffer.concat([Buffer.from(`${NOW}.`), bytes]));
    expect(computeSignature(SECRET, NOW, body)).toBe(expected);
    expect(computeSignature(SECRET, NOW, bytes)).toBe(expected);
  });

  it('hashes Buffer bodies byte for byte, even when they are not valid UTF-8', () => {
    const bytes = Buffer.from([0x7b, 0xff, 0xfe, 0x7d]);
    expect(computeSignature(SECRET, NOW, bytes)).toBe(
      referenceHmac(SECRET, Buffer.concat([Buffer.from(`${NOW}.`), bytes])),
    );
  });

  it('returns 64 lowercase hex characters', () => {
    expect(computeSignature(SECRET, NOW, '')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('signWebhook', () => {
  it('builds `t=<seconds>,v1=<hex>` for the given time', () => {
    expect(signWebhook(SECRET, BODY, NOW)).toBe(`t=${NOW},v1=${BODY_SIGNATURE_AT_NOW}`);
  });

  it('defaults to the current unix time in whole seconds', () => {
    const before = Math.floor(Date.now() / 1000);
    const header = signWebhook(SECRET, BODY);
    const after = Math.floor(Date.now() / 1000);
    const t = Number(/^t=(\d+),/.exec(header)?.[1]);
    expect(t).toBeGreaterThanOrEqual(before);
    expect(t).toBeLessThanOrEqual(after);
    expect(() => verifyWebhookSignature(BODY, header, SECRET)).not.toThrow();
  });

  it('gives a fresh signature for a new attempt time', () => {
    expect(signWebhook(SECRET, BODY, NOW + 60)).not.toBe(signWebhook(SECRET, BODY, NOW));
  });
});

describe('verifyWebhookSignature', () => {
  it('exports the spec tolerance of 300 seconds', () => {
    expect(DEFAULT_TOLERANCE_SECONDS).toBe(300);
  });

  it('accepts a round trip and returns nothing', () => {
    const header = signWebhook(SECRET, BODY, NOW);
    expect(verifyWebhookSignature(BODY, header, SECRET, { nowSeconds: NOW })).toBeUndefined();
  });

  it('accepts a header built independently with createHmac', () => {
    const header = `t=${NOW},v1=${referenceHmac(SECRET, `${NOW}.${BODY}`)}`;
    expect(verifyReason(BODY, header)).toBe('no_error');
  });

  it('accepts a Buffer body signed as a string and vice versa', () => {
    const bytes = Buffer.from(BODY, 'utf8');
    expect(verifyReason(bytes, signWebhook(SECRET, BODY, NOW))).toBe('no_error');
    expect(verifyReason(BODY, signWebhook(SECRET, bytes, NOW))).toBe('no_error');
  });

  it('accepts a multi-byte UTF-8 body', () => {
    const body = '{"memo":"주문 #42 — 감사합니다 🙏"}';
    const header = signWebhook(SECRET, Buffer.from(body, 'utf8'), NOW);
    expect(verifyReason(body, header)).toBe('no_error');
    expect(verifyReason(Buffer.from(body, 'utf8'), header)).toBe('no_error');
  });

  it('throws a WebhookSignatureError with a reason and a fixed message', () => {
    let caught: unknown;
    try {
      verifyWebhookSignature(BODY, undefined, SECRET, { nowSeconds: NOW });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(WebhookSignatureError);
    expect(caught).toBeInstanceOf(Error);
    expect(caught).toMatchObject({ name: 'WebhookSignatureError', reason: 'header_missing' });
    expect((caught as Error).message).not.toContain(SECRET);
  });

  describe('rejects tampering', () => {
    const header = `t=${NOW},v1=${BODY_SIGNATURE_AT_NOW}`;

    it('tampered body', () => {
      expect(verifyReason(BODY.replace('evt_1', 'evt_2'), header)).toBe('signature_mismatch');
      expect(verifyReason(`${BODY} `, header)).toBe('signature_mismatch');
    });

    it('tampered signature hex', () => {
      const flipped = BODY_SIGNATURE_AT_NOW.slice(0, -1) + (BODY_SIGNATURE_AT_NOW.endsWith('5') ? '6' : '5');
      expect(verifyReason(BODY, `t=${NOW},v1=${flipped}`)).toBe('signature_mismatch');
      expect(verifyReason(BODY, `t=${NOW},v1=${'0'.repeat(64)}`)).toBe('signature_mismatch');
    });

    it('tampered timestamp (signature made for another t)', () => {
      expect(verifyReason(BODY, `t=${NOW + 1},v1=${BODY_SIGNATURE_AT_NOW}`, SECRET, NOW + 1)).toBe(
        'signature_mismatch',
      );
    });

    it('wrong secret', () => {
      expect(verifyReason(BODY, header, 'whsec_other_secret')).toBe('signature_mismatch');
      expect(verifyReason(BODY, signWebhook('whsec_other_secret', BODY, NOW))).toBe('signature_mismatch');
    });
  });

  describe('rejects malformed headers', () => {
    it('missing header', () => {
      expect(verifyReason(BODY, undefined)).toBe('header_missing');
    });

    it('empty header', () => {
      expect(verifyReason(BODY, '')).toBe('header_missing');
    });

    // Each case carries a correct HMAC, so only the strict format can reject it.
    const v1 = BODY_SIGNATURE_AT_NOW;
    it.each([
      ['v1=…,t=… order', `v1=${v1},t=${NOW}`],
      ['uppercase hex', `t=${NOW},v1=${v1.toUpperCase()}`],
      ['a space after the comma', `t=${NOW}, v1=${v1}`],
      ['no v1', `t=${NOW}`],
      ['63 hex chars', `t=${NOW},v1=${v1.slice(0, 63)}`],
      ['65 hex chars', `t=${NOW},v1=${v1}0`],
      ['extra ,v0=… part', `t=${NOW},v1=${v1},v0=${v1}`],
      ['non-digit t', `t=17000000O0,v1=${v1}`],
      ['whitespace only', ' '],
    ])('%s', (_case, header) => {
      expect(verifyReason(BODY, header)).toBe('header_malformed');
    });
  });

  describe('timestamp tolerance', () => {
    const at = (t: number) => signWebhook(SECRET, BODY, t);

    it('accepts exactly 300 s old', () => {
      expect(verifyReason(BODY, at(NOW - 300))).toBe('no_error');
    });

    it('rejects 301 s old', () => {
      expect(verifyReason(BODY, at(NOW - 301))).toBe('timestamp_out_of_tolerance');
    });

    it('accepts exactly 300 s in the future', () => {
      expect(verifyReason(BODY, at(NOW + 300))).toBe('no_error');
    });

    it('rejects 301 s in the future', () => {
      expect(verifyReason(BODY, at(NOW + 301))).toBe('timestamp_out_of_tolerance');
    });

    it('rejects the integration test case: 10 minutes old with a valid HMAC', () => {
      expect(verifyReason(BODY, at(NOW - 600))).toBe('timestamp_out_of_tolerance');
    });

    it('reports a forged stale header as a mismatch, not as stale (HMAC is checked first)', () => {
      expect(verifyReason(BODY, `t=${NOW - 600},v1=${'0'.repeat(64)}`)).toBe('signature_mismatch');
    });

    it('honours a custom toleranceSeconds', () => {
      const header = at(NOW - 10);
      expect(
        reasonOf(() => verifyWebhookSignature(BODY, header, SECRET, { nowSeconds: NOW, toleranceSeconds: 10 })),
      ).toBe('no_error');
      expect(
        reasonOf(() => verifyWebhookSignature(BODY, header, SECRET, { nowSeconds: NOW, toleranceSeconds: 9 })),
      ).toBe('timestamp_out_of_tolerance');
    });

    it('rejects an invalid toleranceSeconds as a programming error', () => {
      expect(() => verifyWebhookSignature(BODY, at(NOW), SECRET, { nowSeconds: NOW, toleranceSeconds: -1 })).toThrow(
        RangeError,
      );
    });
  });

  it('signs over t exactly as it appears in the header', () => {
    const padded = `0${NOW}`;
    const header = `t=${padded},v1=${referenceHmac(SECRET, `${padded}.${BODY}`)}`;
    expect(verifyReason(BODY, header)).toBe('no_error');
  });
});
