import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import * as contracts from '@payhook/contracts';
import * as signing from '@payhook/signing';
import fc from 'fast-check';

import * as copy from './payhook-contract';
import { standardSignatureProblem } from './standard-webhooks';
import { DEFAULT_TOLERANCE_SECONDS, SIGNATURE_REASON_MESSAGES, signatureProblem } from './webhook-signature';
import { SDK_VERSION } from './version';

/**
 * The published SDK carries its own copies of what it needs from libs/contracts and libs/signing
 * (payhook-contract.ts, webhook-signature.ts explain why). This spec is what keeps them copies: the types
 * below must be assignable both ways (`npm run typecheck` fails otherwise), and the tests compare every
 * constant by value and the signature check by its verdicts.
 */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

export const typesMatchContracts: [
  Same<copy.PaymentStatus, contracts.PaymentStatus>,
  Same<copy.CreatedPaymentView, contracts.CreatedPaymentView>,
  Same<copy.PaymentView, contracts.PaymentView>,
  Same<copy.ListEnvelope<copy.PaymentView>, contracts.ListEnvelope<contracts.PaymentView>>,
  Same<copy.ErrorCode, contracts.ErrorCode>,
  Same<copy.PaymentCompletedEvent, contracts.PaymentCompletedEvent>,
  Same<copy.PaymentFailedEvent, contracts.PaymentFailedEvent>,
  Same<copy.PaymentCanceledEvent, contracts.PaymentCanceledEvent>,
  Same<copy.PaymentExpiredEvent, contracts.PaymentExpiredEvent>,
  Same<copy.PaymentEvent, contracts.PaymentEvent>,
  Same<copy.RefundSucceededEvent, contracts.RefundSucceededEvent>,
  Same<copy.RefundFailedEvent, contracts.RefundFailedEvent>,
  Same<copy.WebhookEvent, contracts.WebhookEvent>,
  Same<copy.EventType, contracts.EventType>,
  Same<typeof copy.WEBHOOK_HEADERS, typeof contracts.WEBHOOK_HEADERS>,
  Same<signing.WebhookSignatureErrorReason, keyof typeof SIGNATURE_REASON_MESSAGES>,
  Same<copy.RefundView, contracts.RefundView>,
  Same<copy.WebhookAttempt, contracts.WebhookAttemptView>,
  Same<copy.Metadata, contracts.Metadata>,
  Same<copy.CashReceiptStatus, contracts.CashReceiptStatus>,
  Same<copy.CashReceiptView, contracts.CashReceiptView>,
  Same<copy.CashReceiptRequest, contracts.CashReceiptRequest>,
  Same<copy.CashReceiptIssuedEvent, contracts.CashReceiptIssuedEvent>,
  Same<copy.CashReceiptFailedEvent, contracts.CashReceiptFailedEvent>,
  Same<copy.CashReceiptEvent, contracts.CashReceiptEvent>,
  Same<copy.RefundEvent, contracts.RefundEvent>,
  Same<copy.EscrowStatus, contracts.EscrowStatus>,
  Same<copy.EscrowView, contracts.EscrowView>,
  Same<copy.EscrowEvent, contracts.EscrowEvent>,
  Same<copy.EscrowRequest, contracts.EscrowRequest>,
] = [
  true,
  true,
  true,
  true,
  true,
  true,
  true,
  true,
  true,
  true,
  true,
  true,
  true,
  true,
  true,
  true,
  true,
  true,
  true,
  true,
  true,
  true,
  true,
  true,
  true,
  true,
  true,
  true,
  true,
  true,
];

describe("the SDK's copies of libs/contracts", () => {
  it('have the same constants', () => {
    expect(copy.CURRENCY).toBe(contracts.CURRENCY);
    expect(copy.MIN_AMOUNT).toBe(contracts.MIN_AMOUNT);
    expect(copy.MAX_AMOUNT).toBe(contracts.MAX_AMOUNT);
    expect(copy.METADATA_MAX_KEYS).toBe(contracts.METADATA_MAX_KEYS);
    expect(copy.METADATA_KEY_MAX_CHARS).toBe(contracts.METADATA_KEY_MAX_CHARS);
    expect(copy.METADATA_VALUE_MAX_CHARS).toBe(contracts.METADATA_VALUE_MAX_CHARS);
    expect(copy.WEBHOOK_HEADERS).toEqual(contracts.WEBHOOK_HEADERS);
    expect(copy.CASH_RECEIPT_TYPES).toEqual(contracts.CASH_RECEIPT_TYPES);
    expect(Object.keys(contracts.ERROR_CODES).length).toBe(31); // ErrorCode's type check covers the names
    expect(copy.ID_PREFIXES).toEqual({
      payment: contracts.ID_PREFIXES.payment,
      event: contracts.ID_PREFIXES.event,
      refund: contracts.ID_PREFIXES.refund,
      cashReceipt: contracts.ID_PREFIXES.cashReceipt,
    });
  });

  it('recognise an id exactly as contracts does', () => {
    const candidates = fc.oneof(
      fc.constantFrom('payment', 'event', 'refund', 'cashReceipt', 'merchant').map((kind) => contracts.newId(kind)),
      fc.string(),
      fc
        .tuple(
          fc.constantFrom('pay_', 'evt_', 'rfd_', 'crc_', 'PAY_', 'pay-'),
          fc.stringMatching(/^[0-9A-Za-z_-]{0,70}$/),
        )
        .map(([prefix, rest]) => prefix + rest),
    );
    fc.assert(
      fc.property(
        fc.constantFrom<keyof typeof copy.ID_PREFIXES>('payment', 'event', 'refund', 'cashReceipt'),
        candidates,
        (kind, id) => {
          expect(copy.isIdOf(kind, id)).toBe(contracts.isIdOf(kind, id));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe("the SDK's copy of the signature check", () => {
  const verdictOfSigning = (...args: Parameters<typeof signatureProblem>) => {
    try {
      signing.verifyWebhookSignature(...args);
      return 'accepted';
    } catch (error) {
      if (error instanceof signing.WebhookSignatureError) return error.reason;
      return `throws ${(error as Error).name}`;
    }
  };
  const verdictOfSdk = (...args: Parameters<typeof signatureProblem>) => {
    try {
      return signatureProblem(...args) ?? 'accepted';
    } catch (error) {
      return `throws ${(error as Error).name}`;
    }
  };

  it('has the same tolerance and the same message per reason', () => {
    expect(DEFAULT_TOLERANCE_SECONDS).toBe(signing.DEFAULT_TOLERANCE_SECONDS);
    for (const [reason, message] of Object.entries(SIGNATURE_REASON_MESSAGES)) {
      expect(new signing.WebhookSignatureError(reason as signing.WebhookSignatureErrorReason).message).toBe(message);
    }
  });

  it('gives the same verdict as libs/signing on genuine, tampered, stale and malformed deliveries', () => {
    const now = 1_700_000_000;
    const body = fc.oneof(
      fc.string(),
      fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
    );
    const secret = fc.oneof(fc.constant('whsec_copy_test'), fc.string({ minLength: 1 }));
    // Small skews and tolerances, and the default's edges, so the boundaries are met often.
    const skew = fc.oneof(
      fc.integer({ min: -3, max: 3 }),
      fc.constantFrom(-301, -300, 300, 301),
      fc.integer({ min: -now, max: 2 ** 31 }),
    );
    const tolerance = fc.oneof(fc.constant(undefined), fc.nat(3), fc.nat(2000), fc.constantFrom(-1, Number.NaN));
    // A genuine header for the body, or one of the ways a delivery goes wrong.
    const header = (rawBody: Buffer | string, signingSecret: string) =>
      fc.tuple(skew, fc.nat(63)).chain(([offset, position]) => {
        const t = now + offset;
        const genuine = signing.signWebhook(signingSecret, rawBody, t);
        const v1 = genuine.slice(genuine.indexOf('v1=') + 'v1='.length);
        const flipped = v1.slice(0, position) + (v1[position] === '0' ? '1' : '0') + v1.slice(position + 1);
        return fc.constantFrom<string | undefined>(
          genuine,
          undefined,
          '',
          genuine.toUpperCase(),
          `t=0${t},v1=${v1}`,
          `t=${t},v1=${flipped}`,
          `t=${t + 1},v1=${v1}`,
          `v1=${v1},t=${t}`,
          `t=${t}, v1=${v1}`,
        );
      });
    fc.assert(
      fc.property(
        body.chain((rawBody) =>
          secret.chain((signingSecret) =>
            fc.tuple(
              fc.constant(rawBody),
              header(rawBody, signingSecret),
              fc.oneof(fc.constant(signingSecret), secret),
              tolerance,
            ),
          ),
        ),
        ([rawBody, signature, verifyingSecret, toleranceSeconds]) => {
          const args = [rawBody, signature, verifyingSecret, { toleranceSeconds, nowSeconds: now }] as const;
          expect(verdictOfSdk(...args)).toBe(verdictOfSigning(...args));
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe("the SDK's copy of the Standard Webhooks check", () => {
  it('accepts what libs/signing builds, with each secret it lists, and refuses what was changed', () => {
    const now = 1_700_000_000;
    const body = fc.oneof(
      fc.string(),
      fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
    );
    // The shape of the secrets payhook issues.
    const secret = fc.stringMatching(/^[0-9A-Za-z]{32}$/).map((base62) => `whsec_${base62}`);
    const eventId = fc.oneof(
      fc.constant(contracts.newId('event')),
      fc.string({ minLength: 1 }).filter((id) => !id.includes(' ')),
    );
    const skew = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constantFrom(-301, -300, 300, 301), fc.nat(2 ** 31));
    fc.assert(
      fc.property(
        body,
        fc.array(secret, { minLength: 1, maxLength: 3 }),
        secret,
        eventId,
        skew,
        (rawBody, secrets, stranger, id, offset) => {
          const t = Math.max(0, now + offset);
          const headers = signing.deliveryHeaders({ eventId: id, body: rawBody, secrets, nowSeconds: t });
          const genuine = {
            id: headers[contracts.WEBHOOK_HEADERS.webhookId],
            timestamp: headers[contracts.WEBHOOK_HEADERS.webhookTimestamp],
            signature: headers[contracts.WEBHOOK_HEADERS.webhookSignature],
          };
          const verdict = (standard: typeof genuine, verifyingSecret: string, bytes: Buffer | string = rawBody) =>
            standardSignatureProblem(bytes, standard, verifyingSecret, { nowSeconds: now });

          const fresh = Math.abs(now - t) <= DEFAULT_TOLERANCE_SECONDS ? undefined : 'timestamp_out_of_tolerance';
          for (const each of secrets) expect(verdict(genuine, each)).toBe(fresh);
          if (!secrets.includes(stranger)) expect(verdict(genuine, stranger)).toBe('signature_mismatch');
          expect(verdict({ ...genuine, id: `${id}x` }, secrets[0])).toBe('signature_mismatch');
          expect(verdict({ ...genuine, timestamp: String(t + 1) }, secrets[0])).toBe('signature_mismatch');
          expect(verdict(genuine, secrets[0], Buffer.concat([Buffer.from(rawBody), Buffer.from(' ')]))).toBe(
            'signature_mismatch',
          );
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('SDK_VERSION', () => {
  it('is the version in libs/sdk/package.json', () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, '../package.json'), 'utf8')) as { version: string };
    expect(SDK_VERSION).toBe(pkg.version);
  });
});
