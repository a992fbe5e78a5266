import { SCENARIO_NAMES } from '@payhook/contracts';
import { id, instant, nullable, object, type Schema } from '../../platform/openapi/schema-builders';

/**
 * An integration test's shapes, each with its example recorded from a real run of payhook (a test
 * merchant's receiver that accepted a badly signed delivery).
 */
export const INTEGRATION_TEST_SCHEMAS: Record<string, Schema> = {
  IntegrationTest: {
    ...object({
      id: id('itr'),
      status: { enum: ['running', 'passed', 'failed'] },
      scenarios: {
        type: 'array',
        items: object({
          name: { enum: [...SCENARIO_NAMES] },
          status: { enum: ['pending', 'running', 'passed', 'failed'] },
          detail: { type: 'string', description: 'what was sent and what came back' },
        }),
      },
      startedAt: instant,
      finishedAt: nullable(instant),
    }),
    examples: [
      {
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
    ],
  },
  IntegrationTestStarted: {
    ...object({ id: id('itr'), status: { const: 'running' } }),
    examples: [{ id: 'itr_TZdt3Nqht7tDuoj26BmQ4JKU', status: 'running' }],
  },
};
