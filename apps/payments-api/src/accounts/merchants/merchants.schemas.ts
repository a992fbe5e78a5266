import { API_KEY_MODES, MAX_FEE_BPS, MERCHANT_STATUSES } from '@payhook/contracts';
import { id, instant, nullable, object, ref, text, type Schema } from '../../platform/openapi/schema-builders';

const apiKey = {
  id: id('key'),
  merchantId: id('mch'),
  mode: { enum: [...API_KEY_MODES] },
  maskedKey: { type: 'string', description: 'svc_<mode>_… and the last 4 characters' },
  createdAt: instant,
  lastUsedAt: nullable(instant),
  revokedAt: nullable(instant),
};

/**
 * The operator's shapes of merchants and their API keys, each with its example recorded from a real
 * run of payhook (a merchant onboarded, its test key issued, used and revoked).
 */
export const MERCHANT_SCHEMAS: Record<string, Schema> = {
  Merchant: {
    ...object({
      id: id('mch'),
      name: text,
      status: { enum: [...MERCHANT_STATUSES] },
      timeZone: { type: 'string', description: 'IANA time zone' },
      feeBps: { type: 'integer', minimum: 0, maximum: MAX_FEE_BPS },
      settlementDelayDays: { type: 'integer', minimum: 1, maximum: 30 },
      cashReceiptRequired: {
        type: 'boolean',
        description: 'must issue cash receipts unasked (의무발행업종): ₩100,000 or more self-issues at completion',
      },
      consoleEmail: nullable({ type: 'string', format: 'email' }),
      createdAt: instant,
      // The integration-tests feature's shape, by name: the documents assemble both features' shapes.
      latestIntegrationTest: nullable(ref('IntegrationTest')),
    }),
    examples: [
      {
        id: 'mch_l4iVLwVwlbX7uGf01tkffJUc',
        name: 'Acme Books',
        status: 'review',
        timeZone: 'Asia/Seoul',
        feeBps: 250,
        settlementDelayDays: 2,
        cashReceiptRequired: false,
        consoleEmail: null,
        createdAt: '2026-11-24T06:56:19.804Z',
        latestIntegrationTest: {
          id: 'itr_TZdt3Nqht7tDuoj26BmQ4JKU',
          status: 'failed',
          scenarios: [
            {
              name: 'completion',
              detail:
                'payment.completed evt_LPsXC7FZ7O6f431p7KmzIGjl for test payment pay_alyJsxLlZZTolh9nsZyc8ZDO was delivered to https://shop.example/webhooks: HTTP 200 in 1 ms.',
              status: 'passed',
            },
            {
              name: 'retries',
              detail: 'evt_LPsXC7FZ7O6f431p7KmzIGjl sent again with a fresh signature: HTTP 200.',
              status: 'passed',
            },
            {
              name: 'duplicates',
              detail: 'evt_LPsXC7FZ7O6f431p7KmzIGjl delivered twice at the same moment: HTTP 200 and HTTP 200.',
              status: 'passed',
            },
            {
              name: 'review',
              detail:
                'Accepted with 2xx, but must be refused: wrong signature, timestamp 10 minutes old with a valid HMAC, no Service-Signature header, v1 before t, uppercase hex, a space after the comma, no v1. Reject anything but exactly t=<digits>,v1=<64 lowercase hex>, compare in constant time, and refuse a t more than 300 s from your clock.',
              status: 'failed',
            },
          ],
          startedAt: '2026-11-24T06:56:20.098Z',
          finishedAt: '2026-11-24T06:56:20.230Z',
        },
      },
    ],
  },
  ApiKey: {
    ...object(apiKey),
    examples: [
      {
        id: 'key_zYMpjdjhkFY8NdISvoNfhQHI',
        merchantId: 'mch_l4iVLwVwlbX7uGf01tkffJUc',
        mode: 'test',
        maskedKey: 'svc_test_…WfPy',
        createdAt: '2026-11-24T06:56:19.842Z',
        lastUsedAt: '2026-11-24T06:56:19.856Z',
        revokedAt: '2026-11-24T06:56:20.286Z',
      },
    ],
  },
  IssuedApiKey: {
    ...object({ ...apiKey, key: { type: 'string', pattern: '^svc_(test|live)_' } }),
    description: 'The plain key is in this answer only: it is never stored.',
    examples: [
      {
        id: 'key_zYMpjdjhkFY8NdISvoNfhQHI',
        merchantId: 'mch_l4iVLwVwlbX7uGf01tkffJUc',
        mode: 'test',
        maskedKey: 'svc_test_…WfPy',
        createdAt: '2026-11-24T06:56:19.842Z',
        lastUsedAt: null,
        revokedAt: null,
        key: 'svc_test_yqHwnPDuOCwWnk5hrCjDT23MNa1iWfPy',
      },
    ],
  },
};
